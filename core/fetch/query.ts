/**
 * The query mode: JMESPath over a JSON blob, or over NDJSON read as an array of records.
 * JMESPath is a closed language (no code, no regex), so a model-written expression cannot
 * do more than walk and reshape the data.
 */
import { createRequire } from "node:module";
import { clip, fail, fmtCount, ok, quote } from "./answer";
import type { FetchArgs } from "./fetchArgs";
import type { FetchAnswer, FetchInput } from "./fetchTypes";

type JmesPath = typeof import("jmespath");
let jmes: JmesPath | null = null;
/** Loaded with the first query: most processes never run one. */
const jmespath = (): JmesPath => (jmes ??= createRequire(import.meta.url)("jmespath") as JmesPath);

/**
 * Deepest nesting of brackets, parentheses and braces accepted. The JMESPath library parses and
 * evaluates by recursion, so a deep expression runs out of stack; real ones nest a few levels.
 */
const MAX_EXPRESSION_DEPTH = 64;
const TOO_DEEP = "write it with fewer nested levels, or split it into several queries";

export function queryMode(input: FetchInput, args: FetchArgs["query"]): FetchAnswer {
  const depth = nestingDepth(args.expression);
  if (depth > MAX_EXPRESSION_DEPTH) {
    return fail(`The expression nests brackets ${fmtCount(depth)} levels deep, over the limit of ${MAX_EXPRESSION_DEPTH}; ${TOO_DEEP}.`);
  }
  const data = parseData(input);
  if ("error" in data) return fail(data.error);
  let result: unknown;
  try {
    result = jmespath().search(data.value as never, args.expression);
  } catch (err) {
    // Nesting that brackets do not show (projections such as a[][][]…) can still exhaust the stack.
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      return fail(`The expression ${quote(args.expression)} is too deeply nested to run; ${TOO_DEEP}.`);
    }
    const why = err instanceof Error ? clip(err.message.split("\n")[0]!.replace(/\.$/, ""), 160) : "invalid";
    return fail(`The expression ${quote(args.expression)} is not valid JMESPath: ${why}.`);
  }
  if (result === null || result === undefined) {
    return ok(`The expression ${quote(args.expression)} matched nothing (null) in ${input.id}; check field names with outline.`, 0);
  }
  const json = JSON.stringify(result, null, 2);
  const summary = Array.isArray(result)
    ? `an array of ${fmtCount(result.length)}`
    : typeof result === "object"
      ? "an object"
      : `a ${typeof result}`;
  const head = `query ${quote(args.expression)} on ${input.id} gives ${summary} (${fmtCount(json.length)} chars of JSON):`;
  const room = input.limits.maxChars - head.length - 180;
  if (json.length <= room) return ok(`${head}\n${json}`, json.length);
  const cutAt = Math.max(0, json.lastIndexOf("\n", room));
  const body = json.slice(0, cutAt > room / 2 ? cutAt : room);
  const hint = Array.isArray(result) ? "slice it, e.g. [0:20] or [20:40], or project fewer fields" : "select a narrower field";
  const note = `[cut at ${fmtCount(body.length)} of ${fmtCount(json.length)} chars (cap ${fmtCount(input.limits.maxChars)}); ${hint}]`;
  const text = `${head}\n${body}\n${note}`;
  // Only with no room for any JSON can the head overflow the cap; its echo of the expression gives way then.
  const capped = text.length <= input.limits.maxChars ? text : `${clip(head, input.limits.maxChars - note.length - 2)}\n\n${note}`;
  return ok(capped, body.length, true);
}

/** How deep `[`, `(` and `{` nest in `expression`, outside its quoted literals and identifiers. */
function nestingDepth(expression: string): number {
  let depth = 0;
  let deepest = 0;
  let closing = "";
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i]!;
    if (closing) {
      if (c === "\\") i++;
      else if (c === closing) closing = "";
    } else if (c === "'" || c === '"' || c === "`") closing = c;
    else if (c === "[" || c === "(" || c === "{") deepest = Math.max(deepest, ++depth);
    else if (c === "]" || c === ")" || c === "}") depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** The blob as a JSON value; NDJSON becomes an array of its records. */
function parseData(input: FetchInput): { value: unknown } | { error: string } {
  const { content, meta } = input;
  const notJson = `Mode query works on json and ndjson blobs, and ${input.id} is ${meta.kind}; use grep or search instead.`;
  if (meta.kind === "ndjson") return parseNdjson(input);
  const first = content.trimStart()[0];
  if (meta.kind !== "json" && first !== "{" && first !== "[") return { error: notJson };
  try {
    return { value: JSON.parse(content) };
  } catch {
    if (meta.kind !== "json") return { error: notJson };
    return {
      error: `Blob ${input.id} is not valid JSON (it may have been cut by its tool), so query cannot run; use grep or range instead.`,
    };
  }
}

function parseNdjson(input: FetchInput): { value: unknown } | { error: string } {
  const records: unknown[] = [];
  let pos = 0;
  let line = 0;
  const text = input.content;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    const raw = text.slice(pos, end).trim();
    if (raw.length > 0) {
      try {
        records.push(JSON.parse(raw));
      } catch {
        return { error: `Line ${line} of ndjson blob ${input.id} is not valid JSON, so query cannot run; use grep or range instead.` };
      }
    }
    pos = end + 1;
    line++;
  }
  return { value: records };
}
