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

export function queryMode(input: FetchInput, args: FetchArgs["query"]): FetchAnswer {
  const data = parseData(input);
  if ("error" in data) return fail(data.error);
  let result: unknown;
  try {
    result = jmespath().search(data.value as never, args.expression);
  } catch (err) {
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
  const head = `query ${quote(args.expression, 200)} on ${input.id} gives ${summary} (${fmtCount(json.length)} chars of JSON):`;
  const room = input.limits.maxChars - head.length - 180;
  if (json.length <= room) return ok(`${head}\n${json}`, json.length);
  const cutAt = Math.max(0, json.lastIndexOf("\n", room));
  const body = json.slice(0, cutAt > room / 2 ? cutAt : room);
  const hint = Array.isArray(result) ? "slice it, e.g. [0:20] or [20:40], or project fewer fields" : "select a narrower field";
  return ok(
    `${head}\n${body}\n[cut at ${fmtCount(body.length)} of ${fmtCount(json.length)} chars (cap ${fmtCount(input.limits.maxChars)}); ${hint}]`,
    body.length,
    true,
  );
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
