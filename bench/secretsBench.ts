/**
 * Speed of the secret and personal-data scans, moved here from core/sensitivity/secrets.test.ts
 * (issue 9: no timings in tests): `npm run bench -- secrets`. CPU ms, median of five runs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { scanPersonal } from "../core/sensitivity/personal";
import { findSecrets, maskSecrets } from "../core/sensitivity/secrets";
import { buildLog, minifiedJson } from "./payloads";
import { megabytes } from "../tests/helpers/megabytes";

function cpuMedian(fn: () => unknown, runs = 5): number {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    fn();
    const d = process.cpuUsage(c0);
    xs.push((d.user + d.system) / 1000);
  }
  xs.sort((a, b) => a - b);
  return Math.round(xs[Math.floor(runs / 2)]! * 10) / 10;
}

export interface SecretsBenchRow {
  payload: string;
  mb: number;
  scan: "findSecrets" | "maskSecrets" | "scanPersonal";
  found: number;
  cpuMs: number;
}

function jsBundle(): string {
  const dir = join(import.meta.dirname, "..", "node_modules", "prettier", "plugins");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .sort()
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n");
}

/** `text` as shell MCP servers answer: objects of exit code and stdout, 200 lines each. */
function jsonWrapped(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += 200) out.push(JSON.stringify({ exit_code: 0, stdout: lines.slice(i, i + 200).join("\n") }));
  return `[${out.join(",")}]`;
}

/** The figures the old timing tests printed (was: < 1,000 ms for 10 MB scans, < 3,000 ms masking 4,000 secrets), and the personal scan. */
export function benchSecrets(): SecretsBenchRow[] {
  const payloads: [string, string][] = [
    [
      "near-miss log",
      megabytes(
        10,
        (i) => `2024-05-01T12:00:${i % 60}Z INFO GET /api/items/${i} status=200 took=${i % 97}ms user=u${i} "token_count": ${i}\n`,
      ),
    ],
    [
      "near-miss JSON",
      megabytes(10, (i) => `{"id":${i},"name":"item-${i}","max_tokens":${i},"url":"https://example.com/p/${i}?page=${i}"},`),
    ],
    ["build log", buildLog(10 * 1024 * 1024)],
    ["minified JSON", minifiedJson(10 * 1024 * 1024)],
    // A shell tool's answer as JSON: every line of the output is inside escaped string literals,
    // which are scanned a second time decoded (escapedStrings.ts): the worst case for that pass.
    ["build log wrapped in JSON", jsonWrapped(buildLog(10 * 1024 * 1024))],
    // One line, a key named like a credential in every record (`"token": null` in an API's answer):
    // every record is a candidate judged with its line's context, which must not mean a search to
    // the end of the text each time (that took 4-8 s on 1.2 MB).
    [
      "one-line JSON, a token key per record",
      `[${Array.from({ length: 100_000 }, (_, i) => `{"id":${i},"token":null,"name":"item ${i}"}`).join(",")}]`,
    ],
    // Real minified code (prettier's parser plugins, a pinned devDependency): dense identifiers once
    // drove RE2's DFA out of its memory into its slow path (800 ms per MB, then 2,400 with more patterns).
    ["minified JS (prettier's plugins)", jsBundle()],
  ];
  const rows: SecretsBenchRow[] = [];
  for (const [payload, text] of payloads) {
    const mb = Math.round(text.length / 1e5) / 10;
    rows.push({ payload, mb, scan: "findSecrets", found: findSecrets(text).length, cpuMs: cpuMedian(() => findSecrets(text)) });
    const p = scanPersonal(text);
    rows.push({
      payload,
      mb,
      scan: "scanPersonal",
      found: p.emails + p.phones + p.iban + p.ssn + p.card,
      cpuMs: cpuMedian(() => scanPersonal(text)),
    });
  }
  const dense = megabytes(10, (i) => (i % 50 === 0 ? `DB_PASSWORD=pw${i}xyz!\n` : `line ${i} of ordinary output with some words\n`));
  rows.push({
    payload: "secret every 50 lines",
    mb: 10,
    scan: "maskSecrets",
    found: maskSecrets(dense).count,
    cpuMs: cpuMedian(() => maskSecrets(dense), 3),
  });
  return rows;
}
