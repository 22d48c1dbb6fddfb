/**
 * The handle: what the model receives in place of a rescued result. It must say plainly that
 * the excerpt is a preview, give exact sizes, name the fetch call before the excerpt, and show
 * every way to get more, with an example each, in a compact footer.
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
  const shape = field(h.shape, 160);
  const redundant = shape === plural(lines, "line", "lines");
  const desc = shape && !redundant ? `${kind} ${shape}` : kind;
  const ex = h.excerpt ?? { text: "", truncated: true };
  const maxChars = h.maxChars ?? 4_000;
  const fullMaxChars = h.fullMaxChars ?? 50_000;
  const out = [
    `[spillway: output of ${tool} stored as ${id} — ${plural(chars, "char", "chars")}, ${plural(lines, "line", "lines")}, ${desc}]`,
    ex.truncated
      ? "This is a PREVIEW, NOT the full output: the excerpt below shows only part of it."
      : "This is a PREVIEW, NOT the full output as the tool sent it (here the excerpt holds all of its text).",
    // Before the excerpt: hosts clip long results to their first ~2,000 chars (Claude Code's
    // <persisted-output> preview), and the way back must survive the clip.
    `Read the rest with rescuer_fetch(id="${id}", mode=…) (modes below the excerpt), or pass it whole to another tool by writing spill:${id} in its arguments.`,
    "--- excerpt ---",
    ex.text,
    "--- end of excerpt ---",
    // What the tool definition used to say lives here: the definition is re-sent on every
    // request, this text only once per rescued result, and the model reads it when it needs it.
    `rescuer_fetch(id="${id}", …) modes; lines are 0-based; answers stop at ~${fmtInt(maxChars)} chars and say how to go on:`,
    `  mode="stat" — size, kind, expiry`,
    `  mode="outline" — structure, error clusters with first lines`,
    `  mode="search", query="failed payments", top_k=5 — best chunks for a question`,
    `  mode="grep", pattern="${grepExample(kind, shape)}", ignore_case=true — matching lines (RE2)`,
    `  mode="chain", pattern="error", context=3 — matches with lines around`,
    `  mode="range", start=0, count=100 (or start_char=0, count_chars=4000) — a slice`,
  ];
  if (kind === "json" || kind === "ndjson") {
    out.push(`  mode="query", expression="${queryExample(kind, shape)}" — JMESPath`);
  }
  out.push(`  mode="full" — all of it, up to ${fmtInt(fullMaxChars)} chars`);
  return out.join("\n");
}
