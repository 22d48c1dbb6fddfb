/**
 * Argument validation for each fetch mode. Models pass arguments loosely ("5" for 5, null for
 * "not given"), so those are accepted; anything else becomes one sentence naming the argument
 * and what it should be, never a zod dump.
 */
import { z } from "zod";
import { fmtCount, quote } from "./answer";
import { FETCH_MODES, type FetchMode } from "./fetchTypes";

/** Accepts numeric strings for numbers and treats null as absent. */
const loose = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v), schema);
/** Accepts "true"/"false" strings for booleans and treats null as absent. */
const looseBool = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : v === "true" ? true : v === "false" ? false : v), schema);

/**
 * Every argument of rescuer_fetch, once: the schema that validates it, its default, and a few
 * words for the model where the name alone does not say it (the schema is re-sent on every
 * request; the handle shows each mode with its arguments). The per-mode validators below and
 * the tool's advertised input schema (`fetchToolShape`) are both built from this table.
 */
const ARG = {
  query: { schema: z.string().trim().min(1) },
  top_k: { schema: z.int().min(1).max(50), default: 5 },
  pattern: { schema: z.string().min(1), doc: "RE2 regex" },
  ignore_case: { schema: z.boolean(), default: true },
  from_line: { schema: z.int().min(0), default: 0 },
  context: { schema: z.int().min(0).max(50), default: 3 },
  start: { schema: z.int().min(0) },
  count: { schema: z.int().min(1) },
  start_char: { schema: z.int().min(0) },
  count_chars: { schema: z.int().min(1) },
  expression: { schema: z.string().trim().min(1), doc: "JMESPath" },
} as const;
type ArgName = keyof typeof ARG;

/**
 * Text arguments longer than this are refused, as grep refuses a pattern over its 1,000 chars:
 * a question or a JMESPath expression that long is pasted content, not a search, and past it a
 * scan's regex (search) or the parser's recursion (query) can run out of stack.
 */
export const MAX_TEXT_ARG_CHARS = 1_000;
/** What to do instead, for the sentence refusing an argument over the limit. */
const TOO_LONG: Partial<Record<ArgName, string>> = {
  query: "search with a few keywords, or grep for an exact phrase",
  expression: "select a narrower path, or split it into several queries",
};

const schemas = {
  stat: z.object({}),
  outline: z.object({}),
  search: z.object({ query: ARG.query.schema, top_k: loose(ARG.top_k.schema.default(ARG.top_k.default)) }),
  grep: z.object({
    pattern: ARG.pattern.schema,
    ignore_case: looseBool(ARG.ignore_case.schema.default(ARG.ignore_case.default)),
    from_line: loose(ARG.from_line.schema.default(ARG.from_line.default)),
  }),
  chain: z.object({
    pattern: ARG.pattern.schema,
    context: loose(ARG.context.schema.default(ARG.context.default)),
    ignore_case: looseBool(ARG.ignore_case.schema.default(ARG.ignore_case.default)),
    from_line: loose(ARG.from_line.schema.default(ARG.from_line.default)),
  }),
  range: z.object({
    start: loose(ARG.start.schema.optional()),
    count: loose(ARG.count.schema.optional()),
    start_char: loose(ARG.start_char.schema.optional()),
    count_chars: loose(ARG.count_chars.schema.optional()),
  }),
  query: z.object({ expression: ARG.expression.schema }),
  full: z.object({}),
} satisfies Record<FetchMode, z.ZodType>;

/** Names of the mode arguments (everything but id and mode). */
export const FETCH_ARG_NAMES = Object.keys(ARG) as ArgName[];

/** The input schema rescuer_fetch advertises, derived from the validators above. */
export function fetchToolShape(): z.ZodObject {
  const props: Record<string, z.ZodType> = {
    id: z.string(),
    mode: z.enum(FETCH_MODES),
  };
  for (const name of FETCH_ARG_NAMES) {
    const a: { schema: z.ZodType; doc?: string; default?: unknown } = ARG[name];
    props[name] = a.doc ? a.schema.optional().describe(a.doc) : a.schema.optional();
  }
  return z.object(props);
}

/** Parsed arguments of each mode. */
export type FetchArgs = { [M in FetchMode]: z.output<(typeof schemas)[M]> };

/** What each argument must be, for error sentences. */
const EXPECTED: Record<string, string> = {
  query: "a non-empty question or keywords",
  top_k: "a whole number from 1 to 50",
  pattern: "a non-empty RE2 regular expression",
  ignore_case: "true or false",
  from_line: "a 0-based line number (0 or more)",
  context: "a whole number of lines from 0 to 50",
  start: "a 0-based line number (0 or more)",
  count: "a number of lines (1 or more)",
  start_char: "a 0-based char offset (0 or more)",
  count_chars: "a number of chars (1 or more)",
  expression: "a non-empty JMESPath expression",
};

export type ParsedFetchArgs = { [M in FetchMode]: { ok: true; mode: M; args: FetchArgs[M] } }[FetchMode] | { ok: false; message: string };

/** Normalises the mode name and validates its arguments. */
export function parseFetchArgs(mode: string, args: Record<string, unknown> | undefined): ParsedFetchArgs {
  const given = String(mode ?? "")
    .trim()
    .toLowerCase();
  const name = given as FetchMode;
  if (given === "") return { ok: false, message: `The argument mode is required: give one of ${FETCH_MODES.join(", ")}.` };
  if (!FETCH_MODES.includes(name)) {
    return { ok: false, message: `Unknown mode ${quote(String(mode))}: the valid modes are ${FETCH_MODES.join(", ")}.` };
  }
  const parsed = schemas[name].safeParse(args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const arg = String(issue.path[0] ?? "arguments");
    const missing = issue.code === "invalid_type" && (args ?? {})[arg] == null;
    const what = EXPECTED[arg] ?? "valid";
    return {
      ok: false,
      message: missing ? `Mode ${name} needs the argument ${arg}, ${what}.` : `The argument ${arg} of mode ${name} must be ${what}.`,
    };
  }
  for (const [arg, instead] of Object.entries(TOO_LONG)) {
    const value = (parsed.data as Record<string, unknown>)[arg];
    if (typeof value === "string" && value.length > MAX_TEXT_ARG_CHARS) {
      return {
        ok: false,
        message: `The argument ${arg} of mode ${name} is ${fmtCount(value.length)} chars long, over the ${fmtCount(MAX_TEXT_ARG_CHARS)}-char limit; ${instead}.`,
      };
    }
  }
  if (name === "range") {
    const r = parsed.data as FetchArgs["range"];
    if (r.start === undefined && r.start_char === undefined) {
      return { ok: false, message: "Mode range needs the argument start (a 0-based line) or start_char (a 0-based char offset)." };
    }
    if (r.start !== undefined && r.start_char !== undefined) {
      return { ok: false, message: "Mode range takes either start and count (lines) or start_char and count_chars (chars), not both." };
    }
  }
  return { ok: true, mode: name, args: parsed.data } as ParsedFetchArgs;
}
