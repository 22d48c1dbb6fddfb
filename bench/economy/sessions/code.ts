/**
 * Sessions over a real TypeScript source tree (zod 4's core, from node_modules) served by
 * @modelcontextprotocol/server-filesystem: a code tour, an edit loop, and the same 40 KB file
 * read every turn (toolrecall-light's experiment).
 */
import { join } from "node:path";
import type { Session, Turn } from "../agent";
import { freshDir, packageDir, upstream, worldPath } from "./world";

const world = (name: string) => async () => {
  const dir = freshDir(name, { core: join(packageDir("zod"), "src/v4/core") });
  return { servers: { fs: upstream.filesystem(dir.path) }, cleanup: dir.cleanup };
};
const pathIn = (name: string, file: string) => worldPath(name, "core", file);
const read = (session: string, file: string) => ({ tool: "read_text_file", args: { path: pathIn(session, file) } });

const TOUR = "code-tour";
export const codeTour: Session = {
  name: TOUR,
  description: "filesystem: read and re-read files of zod's core to answer questions",
  setup: world(TOUR),
  turns: [
    {
      question: "Which file in zod's core converts schemas to JSON Schema?",
      calls: [{ tool: "list_directory", args: { path: worldPath(TOUR, "core") } }],
      answer: ["to-json-schema.ts"],
    },
    {
      question: "What is the default separator of joinValues in util.ts?",
      calls: [read(TOUR, "util.ts")],
      answer: ['joinValues<T extends Primitive[]>(array: T, separator = "|")'],
      lookup: { mode: "grep", pattern: "joinValues" },
    },
    {
      question: "Which function in errors.ts turns an error into a readable string?",
      calls: [read(TOUR, "errors.ts")],
      answer: ["export function prettifyError"],
      lookup: { mode: "grep", pattern: "^export function" },
    },
    {
      question: "What length does randomString use by default?",
      calls: [read(TOUR, "util.ts")],
      answer: ["randomString(length = 10)"],
      lookup: { mode: "grep", pattern: "randomString" },
    },
    {
      question: "Which regex does zod use for E.164 phone numbers?",
      calls: [read(TOUR, "regexes.ts")],
      answer: ["export const e164: RegExp = /^\\+[1-9]\\d{6,14}$/;"],
      lookup: { mode: "grep", pattern: "e164|phone" },
    },
    {
      question: "How large is schemas.ts?",
      calls: [{ tool: "get_file_info", args: { path: pathIn(TOUR, "schemas.ts") } }],
      answer: ["size: 177123"],
    },
    {
      question: "What does flattenError use as its default mapper?",
      calls: [read(TOUR, "errors.ts")],
      answer: ["mapper = (issue: $ZodIssue) => issue.message as U"],
      lookup: { mode: "grep", pattern: "function flattenError" },
    },
    {
      question: "Which check class implements multipleOf?",
      calls: [read(TOUR, "checks.ts")],
      answer: ["export const $ZodCheckMultipleOf"],
      lookup: { mode: "grep", pattern: "multipleof" },
    },
    {
      question: "Which helper in util.ts escapes regex special characters?",
      calls: [read(TOUR, "util.ts")],
      answer: ["export function escapeRegex(str: string): string"],
      lookup: { mode: "grep", pattern: "escape" },
    },
    {
      question: "Which files in zod's core have json in their name?",
      calls: [{ tool: "search_files", args: { path: worldPath(TOUR, "core"), pattern: "**/*json*" } }],
      answer: ["json-schema-processors.ts", "to-json-schema.ts"],
    },
    {
      question: "What does the ulid regex accept as its first character?",
      calls: [read(TOUR, "regexes.ts")],
      answer: ["export const ulid: RegExp = /^[0-7]"],
      lookup: { mode: "grep", pattern: "ulid" },
    },
  ],
};

const EDIT = "edit-loop";
const edit = (file: string, oldText: string, newText: string) => ({
  tool: "edit_file",
  args: { path: pathIn(EDIT, file), edits: [{ oldText, newText }] },
});
const editTurns: Turn[] = [
  {
    question: "What does the cuid2 regex accept?",
    calls: [read(EDIT, "regexes.ts")],
    answer: ["export const cuid2: RegExp = /^[0-9a-z]+$/;"],
    lookup: { mode: "grep", pattern: "cuid2" },
  },
  {
    question: "Allow 15 digits after the first in e164; does the file now hold the new pattern?",
    calls: [
      edit("regexes.ts", "export const e164: RegExp = /^\\+[1-9]\\d{6,14}$/;", "export const e164: RegExp = /^\\+[1-9]\\d{6,15}$/;"),
      read(EDIT, "regexes.ts"),
    ],
    answer: ["export const e164: RegExp = /^\\+[1-9]\\d{6,15}$/;"],
    lookup: { mode: "grep", pattern: "e164" },
  },
  {
    question: "Add a slug regex after ksuid; is it in the file, and on which line?",
    calls: [
      edit(
        "regexes.ts",
        "export const ksuid: RegExp = /^[A-Za-z0-9]{27}$/;",
        "export const ksuid: RegExp = /^[A-Za-z0-9]{27}$/;\nexport const slug: RegExp = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;",
      ),
      read(EDIT, "regexes.ts"),
    ],
    answer: ["export const slug: RegExp = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;"],
    lookup: { mode: "grep", pattern: "slug" },
  },
  {
    question: "What does parse.ts export for safe parsing?",
    calls: [read(EDIT, "parse.ts")],
    answer: ["export const _safeParse"],
    lookup: { mode: "grep", pattern: "safeParse" },
  },
  {
    question: "Rename the iban regex to ibanCode; does the file show the new name?",
    calls: [edit("regexes.ts", "export const iban: RegExp", "export const ibanCode: RegExp"), read(EDIT, "regexes.ts")],
    answer: ["export const ibanCode: RegExp = /^[A-Z]{2}(?!00|01|99)\\d{2}[A-Z0-9]{11,30}$/;"],
    lookup: { mode: "grep", pattern: "ibanCode" },
  },
  {
    question: "What is the hostname regex now?",
    calls: [read(EDIT, "regexes.ts")],
    answer: ["export const hostname: RegExp ="],
    lookup: { mode: "chain", pattern: "export const hostname", context: 2 },
  },
  {
    question: "Make the boolean regex case-sensitive; is the change in the file?",
    calls: [
      edit("regexes.ts", "export const boolean: RegExp = /^(?:true|false)$/i;", "export const boolean: RegExp = /^(?:true|false)$/;"),
      read(EDIT, "regexes.ts"),
    ],
    answer: ["export const boolean: RegExp = /^(?:true|false)$/;"],
    lookup: { mode: "grep", pattern: "export const boolean" },
  },
  {
    question: "Which regexes does the file define for UUIDs?",
    calls: [read(EDIT, "regexes.ts")],
    answer: ["export const uuid4: RegExp", "export const uuid7: RegExp"],
    lookup: { mode: "grep", pattern: "uuid" },
  },
];
export const editLoop: Session = {
  name: EDIT,
  description: "filesystem: edit regexes.ts and re-read it to check each change",
  setup: world(EDIT),
  turns: editTurns,
};

const REPEAT = "repeat-40k";
const checks = read(REPEAT, "checks.ts");
const repeatQ: [string, string[], Turn["lookup"]][] = [
  ["Which issue code does the multipleOf check report?", ['code: "not_multiple_of"'], { mode: "grep", pattern: "multiple" }],
  [
    "What pattern does the lower-case check use when none is given?",
    ["def.pattern ??= regexes.lowercase;"],
    { mode: "grep", pattern: "lowercase" },
  ],
  [
    "How does the max-length check count the length of a string?",
    ["util.codePointLength(input)"],
    { mode: "chain", pattern: '"\\$ZodCheckMaxLength"', context: 10 },
  ],
  [
    "Which number format does the number-format check fall back to?",
    ['def.format = def.format || "float64";'],
    { mode: "grep", pattern: "def.format" },
  ],
  ["What does numericOriginMap map Date values to?", ['object: "date"'], { mode: "chain", pattern: "numericOriginMap = ", context: 5 }],
  [
    "What issue does the MIME type check report, with which values?",
    ['code: "invalid_value"', "values: def.mime"],
    { mode: "chain", pattern: '"\\$ZodCheckMimeType"', context: 12 },
  ],
  [
    "What does the abort option of a check do?",
    ["If true, no later checks will be executed if this check fails."],
    { mode: "grep", pattern: "abort" },
  ],
  [
    "How does the less-than check treat an inclusive bound?",
    ["def.inclusive ? payload.value <= def.value : payload.value < def.value"],
    { mode: "grep", pattern: "inclusive" },
  ],
  ["Which modules does checks.ts import?", ['import * as regexes from "./regexes.js";'], { mode: "range", start: 0, count: 12 }],
  ["When does the max-length check run by default?", ["inst._zod.def.when ??= _whenHasLength;"], { mode: "grep", pattern: "when \\?\\?=" }],
];
export const repeat40k: Session = {
  name: REPEAT,
  description: "filesystem: the same 39 KB file (checks.ts) read every turn, a new question each time",
  setup: world(REPEAT),
  turns: repeatQ.map(([question, answer, lookup]) => ({ question, calls: [checks], answer, lookup })),
};
