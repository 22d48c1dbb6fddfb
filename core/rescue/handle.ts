/**
 * The handle: what the model receives in place of a rescued result. It must say plainly that
 * the excerpt is a preview, give exact sizes, and show every way to get more before the
 * excerpt, in as few tokens as that takes: a handle is re-sent on every later request.
 */
import type { Kind } from "../types";
import type { Excerpt } from "./excerpt";
import { fmtInt, oneLine } from "./format";

export interface HandleInput {
  id: string;
  tool: string;
  chars: number;
  lines: number;
  kind: Kind;
  shape: string;
  excerpt: Excerpt;
  /** The caps the footer names (fetch.maxChars, fetch.fullMaxChars); defaults when not given. */
  maxChars?: number;
  fullMaxChars?: number;
}

/** Header fields are single-line and bounded so a hostile tool name cannot reshape the handle. */
function field(s: unknown, max: number): string {
  const t = oneLine(String(s ?? ""))
    .replace(/\s+/g, " ")
    .trim();
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}

function plural(n: number, one: string, many: string): string {
  return `${fmtInt(n)} ${n === 1 ? one : many}`;
}

/** First key of the first `object{…}` in a shape, when it is a plain identifier. */
function firstKey(shape: string): string | undefined {
  return /object\{(?:\d[\d,]* keys: )?([A-Za-z_][A-Za-z0-9_]*)/.exec(shape)?.[1];
}

/** A JMESPath example that works on this blob's shape. */
function queryExample(kind: Kind, shape: string): string {
  const key = firstKey(shape);
  const slice = key ? `[0:5].${key}` : "[0:5]";
  if (kind === "ndjson" || shape.startsWith("array")) return slice;
  // An envelope whose payload array the shape names: `…, .results: array[1550] of object{…}`.
  const payload = /, \.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*): array\[/.exec(shape)?.[1];
  const inner = payload ? firstKey(shape.slice(shape.indexOf(": array["))) : undefined;
  if (payload) return `${payload}[0:5]${inner ? "." + inner : ""}`;
  return "keys(@)";
}

/** A grep pattern worth trying for this kind (plain text, no quotes to escape). */
function grepExample(kind: Kind, shape: string): string {
  switch (kind) {
    case "log":
    case "text":
      return "error|fail";
    case "json":
    case "ndjson":
      // The innermost record's first key: in an envelope that is the payload's, not "meta".
      return firstKey(shape.slice(Math.max(0, shape.lastIndexOf("object{")))) ?? "id";
    case "markdown":
      return "^#+ ";
    case "html":
      return "<h[1-3]";
    case "xml":
      return "<[a-z]+ ";
    case "code":
      return "function|class";
    default:
      return "refund";
  }
}

/** Render the handle text for a stored result. */
export function renderHandle(h: HandleInput): string {
  const id = field(h.id, 64);
  const tool = field(h.tool, 80) || "tool";
  const chars = Number.isFinite(h.chars) ? h.chars : 0;
  const lines = Number.isFinite(h.lines) ? h.lines : 0;
  const kind = field(h.kind, 16) as Kind;
  // A shape that ends with the line count ("typescript, 217 lines") need not say it twice.
  const counted = plural(lines, "line", "lines");
  let shape = field(h.shape, 160);
  if (shape === counted) shape = "";
  else if (shape.endsWith(`, ${counted}`)) shape = shape.slice(0, -counted.length - 2);
  const desc = shape ? `${kind} ${shape}` : kind;
  const ex = h.excerpt ?? { text: "", truncated: true };
  const maxChars = h.maxChars ?? 4_000;
  const fullMaxChars = h.fullMaxChars ?? 50_000;
  const query = kind === "json" || kind === "ndjson" ? ` | query, expression="${queryExample(kind, shape)}" (JMESPath)` : "";
  // Every way back, before the excerpt: hosts clip long results to their first ~2,000 chars
  // (Claude Code's <persisted-output> preview), and the way back must survive the clip. This
  // text is all the model learns of the modes (the tool definition, re-sent on every request,
  // only names them), so each mode is named with its arguments, in as few words as that takes.
  const modes =
    `Read more with rescuer_fetch(id="${id}", mode=…): stat | outline (structure, error clusters) | search, query` +
    ` | grep, pattern="${grepExample(kind, shape)}" (RE2) | chain, pattern, context | range, start, count (lines 0-based) or start_char, count_chars` +
    `${query} | full (up to ${fmtInt(fullMaxChars)} chars). Answers stop at ~${fmtInt(maxChars)} chars and say how to go on.` +
    ` Pass it whole to another tool by writing spill:${id} in its arguments.`;
  return [
    `[spillway: output of ${tool} stored as ${id} — ${plural(chars, "char", "chars")}, ${plural(lines, "line", "lines")}, ${desc}]`,
    ex.truncated
      ? "This is a PREVIEW, NOT the full output: the excerpt below shows only part of it."
      : "This is a PREVIEW, NOT the full output as the tool sent it (here the excerpt holds all of its text).",
    modes,
    "--- excerpt ---",
    ex.text,
    "--- end of excerpt ---",
  ].join("\n");
}
