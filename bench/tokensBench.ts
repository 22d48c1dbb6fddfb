/**
 * CPU cost of the background token count of one big result, as the engine runs it after a
 * rescue (`npm run bench -- tokens`): a 50 MB minified JSON and a 10 MB log. CPU time, not wall
 * time, so a loaded machine does not inflate it. Issue 12: no single result may cost over 2 s.
 */
import { createTokenCounter } from "../core/savings/tokens";
import { buildLog, minifiedJson } from "./payloads";

export interface TokenBenchRow {
  payload: string;
  chars: number;
  tokens: number;
  estimated: boolean;
  cpuMs: number;
}

async function measure(payload: string, text: string): Promise<TokenBenchRow> {
  const counter = createTokenCounter("o200k_base");
  counter.count("warm up the tables");
  const c0 = process.cpuUsage();
  const r = await counter.measure(text);
  const d = process.cpuUsage(c0);
  return { payload, chars: text.length, tokens: r.tokens, estimated: r.estimated, cpuMs: Math.round((d.user + d.system) / 1000) };
}

/** One row per payload; `exact` also counts each payload exactly, to print the estimate's error. */
export async function benchTokens(exact = false): Promise<(TokenBenchRow & { exactTokens?: number; errorPct?: number })[]> {
  const rows = [];
  for (const [name, make] of [
    ["log10m", () => buildLog(10 * 1024 * 1024)],
    ["json50m", () => minifiedJson(50 * 1024 * 1024)],
  ] as const) {
    const text = make();
    const row = await measure(name, text);
    if (!exact) {
      rows.push(row);
      continue;
    }
    const exactTokens = await createTokenCounter("o200k_base").countAsync(text);
    rows.push({ ...row, exactTokens, errorPct: Math.round(((row.tokens - exactTokens) / exactTokens) * 10000) / 100 });
  }
  return rows;
}
