/**
 * Rescue benchmark for one payload, run in its own process so peak RSS is its own:
 * `node --import tsx --expose-gc bench/rescueBench.ts <json170k|log10m|json50m>`; prints one JSON line.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createEngine } from "../core/engine";
import { buildExcerpt } from "../core/rescue/excerpt";
import { detectKind } from "../core/rescue/kind";
import { buildOutline } from "../core/fetch/outline";
import { memoryLogger } from "../core/runtime";
import { countLines } from "../core/text/lines";
import { tempHome } from "../tests/helpers/tempHome";
import { buildLog, minifiedJson } from "./payloads";

const which = process.argv[2] ?? "json170k";
const FIXTURE = join(import.meta.dirname, "..", "tests", "fixtures", "json", "transactions.json");

function payload(): string {
  if (which === "json170k") return readFileSync(FIXTURE, "utf8");
  if (which === "log10m") return buildLog(10 * 1024 * 1024);
  if (which === "json50m") return minifiedJson(50 * 1024 * 1024);
  throw new Error(`unknown payload ${which}`);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => Math.round(x * 100) / 100;

(globalThis as { gc?: () => void }).gc?.();
const baseRss = process.memoryUsage().rss;
const text = payload();
const payloadBytes = Buffer.byteLength(text, "utf8");
const runs = which === "json170k" ? 60 : which === "log10m" ? 12 : 4;
const home = tempHome("spillway-bench-");
const engine = createEngine({ home: home.path, logger: memoryLogger() });
const stages: Record<string, number[]> = { hash: [], store: [], kind: [], excerpt: [], outline: [], total: [], dedupCheck: [] };

for (let i = 0; i < runs; i++) {
  // a distinct payload each run (one char changed at the end) so every run stores a new blob
  const t = i === 0 ? text : text.slice(0, -1) + String.fromCharCode(48 + (i % 10));
  const session = `bench-${i}`;
  let t0 = performance.now();
  engine.store.idFor(t);
  stages.hash!.push(performance.now() - t0);
  t0 = performance.now();
  const { kind, shape } = detectKind(t);
  stages.kind!.push(performance.now() - t0);
  t0 = performance.now();
  buildExcerpt(t, kind, 8000);
  stages.excerpt!.push(performance.now() - t0);
  t0 = performance.now();
  buildOutline(t, kind);
  stages.outline!.push(performance.now() - t0);
  t0 = performance.now();
  engine.store.put(t + "#store", { tool: "bench", sessionId: session, kind, shape, lines: countLines(t), label: "public" });
  stages.store!.push(performance.now() - t0);
  // the whole interception path, as an agent's call sees it
  t0 = performance.now();
  const r = engine.transformToolResult({ sessionId: session, tool: "bench", args: { i }, text: t });
  stages.total!.push(performance.now() - t0);
  if (r.outcome !== "rescued") throw new Error(`expected a rescue, got ${r.outcome}`);
  // the repeat: a dedup check that ends in a stub
  t0 = performance.now();
  const again = engine.transformToolResult({ sessionId: session, tool: "bench", args: { i }, text: t });
  stages.dedupCheck!.push(performance.now() - t0);
  if (which !== "json50m" && again.outcome !== "stubbed") throw new Error(`expected a stub, got ${again.outcome}`);
}
const peakRss = process.resourceUsage().maxRSS * 1024;
await engine.close();
home.cleanup();

const out: Record<string, unknown> = { payload: which, chars: text.length, bytes: payloadBytes, runs };
for (const [k, v] of Object.entries(stages)) out[k] = { p50: ms(pct(v, 50)), p95: ms(pct(v, 95)) };
out.peakRssMb = Math.round(peakRss / 1048576);
out.baseRssMb = Math.round(baseRss / 1048576);
out.rssOverPayload = Math.round(((peakRss - baseRss) / payloadBytes) * 100) / 100;
process.stdout.write(JSON.stringify(out) + "\n");
