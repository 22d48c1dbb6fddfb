/**
 * fetch.run: a fetch mode run by hand. The answer is what the model would get from
 * rescuer_fetch (as the operator), through the operator's view (masked unless revealed); beside
 * it, the places it points at, so the viewer can jump.
 */
import type { Engine } from "../../engine/engineApi";
import { compilePattern } from "../../fetch/grepPattern";
import { scanLines } from "../../fetch/grepScan";
import type { FetchModeName } from "../api/contract";
import { lineAt, type CachedText } from "./contentPage";
import type { FetchRun, Jump } from "../api/dto";

/** Jump targets listed at most (the grep answer itself shows at most 200 lines). */
const MAX_JUMPS = 500;

function num(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^\s*\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

function bool(v: unknown, fallback: boolean): boolean {
  return v === true || v === "true" ? true : v === false || v === "false" ? false : fallback;
}

/** Lines an answer names (`L12: …`, `lines 40–79 …`): outline, stat and friends. */
function jumpsFromText(text: string): Jump[] {
  const out: Jump[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*L(\d+)\b/.exec(line) ?? /\blines? (\d+)(?:[–-]\d+)?\b/.exec(line);
    if (m) out.push({ line: Number(m[1]), text: line.trim().slice(0, 300) });
    if (out.length >= MAX_JUMPS) break;
  }
  return out;
}

function grepJumps(view: CachedText, args: Record<string, unknown>): Jump[] {
  const pattern = typeof args.pattern === "string" ? args.pattern : "";
  const pat = compilePattern(pattern, bool(args.ignore_case, true));
  if (!pat.ok) return [];
  const fromLine = num(args.from_line) ?? 0;
  const scan = scanLines(view.text, pat, { fromLine, maxHits: MAX_JUMPS, countCap: MAX_JUMPS });
  return scan.hits.map((h) => {
    const startCol = h.matchStart - h.lineStart;
    // Long lines (minified JSON) are shown as a slice around the match, not from their start.
    const textStart = Math.max(0, startCol - 100);
    return {
      line: h.line,
      startCol,
      endCol: Math.max(h.matchEnd, h.matchStart) - h.lineStart,
      text: view.text.slice(h.lineStart + textStart, Math.min(h.lineEnd, h.lineStart + textStart + 300)),
      textStart,
    };
  });
}

export function runFetchByHand(
  engine: Engine,
  view: CachedText,
  req: { id: string; mode: FetchModeName; args: Record<string, unknown>; masked?: boolean },
): FetchRun {
  const t0 = performance.now();
  const answer = engine.fetch({ sessionId: null, operator: "inspector", id: req.id, mode: req.mode, args: req.args });
  let jumps: Jump[] = [];
  if (!answer.isError) {
    if (req.mode === "grep" || req.mode === "chain") jumps = grepJumps(view, req.args);
    else if (req.mode === "search" && typeof req.args.query === "string") {
      jumps = engine
        .search(req.args.query, { blobId: req.id, topK: num(req.args.top_k) ?? 5 })
        .map((h) => ({ line: h.startLine, text: h.snippet }));
    } else if (req.mode === "range") {
      const start = num(req.args.start);
      const startChar = num(req.args.start_char);
      if (start !== undefined) jumps = [{ line: start, text: `line ${start}` }];
      else if (startChar !== undefined) {
        const line = lineAt(view, startChar);
        jumps = [{ line, startCol: startChar - (view.starts[line] ?? 0), text: `char ${startChar} (line ${line})` }];
      }
    } else jumps = jumpsFromText(answer.text);
  }
  const text = engine.operatorView(answer.text, req.masked === false);
  return { text, truncated: answer.truncated, isError: answer.isError, jumps, tookMs: Math.round(performance.now() - t0) };
}
