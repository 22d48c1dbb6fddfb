/**
 * Argument validation for each fetch mode. Models pass arguments loosely ("5" for 5, null for
 * "not given"), so those are accepted; anything else becomes one sentence naming the argument
 * and what it should be, never a zod dump.
 */
import { z } from "zod";
import { FETCH_MODES, type FetchMode } from "./fetchTypes";

/** Accepts numeric strings for numbers and treats null as absent. */
const loose = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v), schema);
/** Accepts "true"/"false" strings for booleans and treats null as absent. */
const looseBool = (fallback: boolean) =>
  z.preprocess((v) => (v === null ? undefined : v === "true" ? true : v === "false" ? false : v), z.boolean().default(fallback));

const patternArg = z.string().min(1);

const schemas = {
  stat: z.object({}),
  outline: z.object({}),
  search: z.object({ query: z.string().trim().min(1), top_k: loose(z.int().min(1).max(50).default(5)) }),
  grep: z.object({ pattern: patternArg, ignore_case: looseBool(true), from_line: loose(z.int().min(0).default(0)) }),
  chain: z.object({
    pattern: patternArg,
    context: loose(z.int().min(0).max(50).default(3)),
    ignore_case: looseBool(true),
    from_line: loose(z.int().min(0).default(0)),
  }),
  range: z.object({
    start: loose(z.int().min(0).optional()),
    count: loose(z.int().min(1).optional()),
    start_char: loose(z.int().min(0).optional()),
    count_chars: loose(z.int().min(1).optional()),
  }),
  query: z.object({ expression: z.string().trim().min(1) }),
  full: z.object({}),
} satisfies Record<FetchMode, z.ZodType>;

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
  const name = String(mode ?? "").trim().toLowerCase() as FetchMode;
  if (!FETCH_MODES.includes(name)) {
    return { ok: false, message: `Unknown mode ${JSON.stringify(String(mode ?? ""))}: the valid modes are ${FETCH_MODES.join(", ")}.` };
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
