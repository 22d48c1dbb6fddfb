/**
 * Fetch benchmarks: grep throughput over a 100 MB log, search latency on a 10 MB blob, indexing
 * throughput, and global search over about 1 GB of stored results (or as much as can be indexed
 * within GLOBAL_BUILD_SECONDS, reported as `global.builtMb`). Everything runs on real SQLite files
 * in a temp dir and real RE2. Figures on a shared machine vary with its load, so the one-minute
 * load average is reported beside them.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { runFetch } from "../core/fetch/fetchModes";
import { SearchIndex, searchMigrationSql } from "../core/search/searchIndex";
import { countLines } from "../core/text/lines";
import type { BlobMeta, Kind } from "../core/types";
import { corpus, questions } from "./fetchCorpus";
import { buildLog } from "./payloads";

const MB = 1024 * 1024;
const GLOBAL_TARGET_MB = Number(process.env.SPILLWAY_BENCH_GLOBAL_MB ?? 1024);
const GLOBAL_BUILD_SECONDS = Number(process.env.SPILLWAY_BENCH_GLOBAL_SECONDS ?? 170);
const GLOBAL_BLOB_CHARS = 2 * MB;

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
/** CPU milliseconds (user + system) spent in `f`: on a loaded machine wall time overstates our cost. */
function cpuMs(f: () => void): number {
  const before = process.cpuUsage();
  f();
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1000;
}
const pct = (xs: number[], p: number) => xs.toSorted((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

function meta(id: string, content: string, kind: Kind): BlobMeta {
  return {
    id,
    chars: content.length,
    bytes: content.length,
    lines: countLines(content),
    kind,
    shape: "",
    tool: "bench",
    server: null,
    sessionId: "bench",
    label: "public",
    encrypted: false,
    pinned: false,
    state: "live",
    createdAt: 0,
    lastAccessAt: 0,
    expiresAt: 0,
    fetchCount: 0,
    tombstonedAt: null,
  };
}

function openIndex(dir: string): { db: Database.Database; index: SearchIndex } {
  const db = new Database(join(dir, "index.db"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(searchMigrationSql);
  return { db, index: new SearchIndex(db) };
}

/** grep over a generated 100 MB build log: a literal, a case-insensitive word, and two regexes. */
function benchGrep(): Record<string, unknown> {
  const log = buildLog(100 * MB);
  const input = { id: "log", content: log, meta: meta("log", log, "log"), args: {}, limits: { maxChars: 4000, fullMaxChars: 50_000 } };
  const patterns: [string, Record<string, unknown>][] = [
    ["literal", { pattern: "TS2345" }], // rare literal: the V8 prefilter path
    ["word, ignoring case", { pattern: "error" }],
    ["regex without a literal", { pattern: "[A-Z]{2}\\d{4} [A-Z]", ignore_case: false }], // RE2 over every block
    ["regex with a common literal", { pattern: "in \\d{4,} ms" }], // prefilter too dense: falls back to RE2
  ];
  const out: Record<string, unknown> = { sizeMb: round(log.length / MB) };
  const rates: number[] = [];
  for (const [name, args] of patterns) {
    const times: number[] = [];
    const cpu: number[] = [];
    let hits = "";
    for (let run = 0; run < 3; run++) {
      const t = performance.now();
      cpu.push(
        cpuMs(
          () =>
            (hits = runFetch("grep", { ...input, args })
              .text.split("\n")[0]!
              .replace(/^.*: /, "")),
        ),
      );
      times.push(performance.now() - t);
    }
    const rate = log.length / MB / (pct(times, 0.5) / 1000);
    rates.push(rate);
    out[name] = {
      ...args,
      mbPerSec: round(rate),
      mbPerCpuSec: round(log.length / MB / (pct(cpu, 0.5) / 1000)),
      p50Ms: round(pct(times, 0.5)),
      firstRunMs: round(times[0]!),
      result: hits,
    };
  }
  out.minMbPerSec = round(Math.min(...rates));
  return out;
}

/** Indexing a 10 MB blob, then per-blob search latency, raw and through the fetch mode. */
function benchBlobSearch(dir: string): Record<string, unknown> {
  const c = corpus();
  const { text, kind } = c.blob(1, 10 * MB);
  const { db, index } = openIndex(dir);
  try {
    const t = performance.now();
    const indexCpuMs = cpuMs(() => index.indexBlob("ten", text, kind));
    const indexMs = performance.now() - t;
    const qs = questions(c, 40);
    for (const q of qs) index.search(q, { blobId: "ten", topK: 5 }); // warm-up: JIT and page cache
    const raw = qs.map((q) => {
      const s = performance.now();
      index.search(q, { blobId: "ten", topK: 5 });
      return performance.now() - s;
    });
    const input = {
      id: "ten",
      content: text,
      meta: meta("ten", text, kind),
      limits: { maxChars: 4000, fullMaxChars: 50_000 },
      search: index,
    };
    const viaFetch = qs.map((q) => {
      const s = performance.now();
      runFetch("search", { ...input, args: { query: q } });
      return performance.now() - s;
    });
    return {
      blobMb: round(text.length / MB),
      indexMs: round(indexMs),
      indexMbPerSec: round(text.length / MB / (indexMs / 1000)),
      indexMbPerCpuSec: round(text.length / MB / (indexCpuMs / 1000)),
      searchP50Ms: round(pct(raw, 0.5), 2),
      searchP90Ms: round(pct(raw, 0.9), 2),
      fetchSearchP50Ms: round(pct(viaFetch, 0.5), 2),
    };
  } finally {
    db.close();
  }
}

/** Builds a store-sized index of generated results, then times global (all-blob) searches. */
function benchGlobalSearch(dir: string): Record<string, unknown> {
  const c = corpus();
  const { db, index } = openIndex(dir);
  try {
    let chars = 0;
    let blobs = 0;
    let indexMs = 0;
    let indexCpuMs = 0;
    const start = performance.now();
    while (chars < GLOBAL_TARGET_MB * MB && performance.now() - start < GLOBAL_BUILD_SECONDS * 1000) {
      const { text, kind } = c.blob(1000 + blobs, GLOBAL_BLOB_CHARS);
      const t = performance.now();
      indexCpuMs += cpuMs(() => index.indexBlob(`blob-${blobs}`, text, kind));
      indexMs += performance.now() - t;
      chars += text.length;
      blobs++;
    }
    const buildSeconds = (performance.now() - start) / 1000;
    const qs = questions(c, 40);
    for (const q of qs) index.search(q, { topK: 5 }); // warm-up: JIT and page cache
    const times = qs.map((q) => {
      const s = performance.now();
      index.search(q, { topK: 5 });
      return performance.now() - s;
    });
    const oneBlob = qs.map((q) => {
      const s = performance.now();
      index.search(q, { blobId: `blob-${blobs >> 1}`, topK: 5 });
      return performance.now() - s;
    });
    // One more result in the built index, and one removed (a sweep or an eviction), as the
    // engine does after each rescue: CPU ms each, p50 over a few runs.
    const addMs: number[] = [];
    const removeMs: number[] = [];
    for (let k = 0; k < 7; k++) {
      const { text, kind } = c.blob(900_000 + k, 192 * 1024);
      addMs.push(cpuMs(() => index.indexBlob(`added-${k}`, text, kind)));
      removeMs.push(cpuMs(() => index.removeBlob(`blob-${k}`)));
    }
    const chunks = (db.prepare("SELECT count(*) AS n FROM search_chunks").get() as { n: number }).n;
    db.pragma("wal_checkpoint(TRUNCATE)");
    return {
      builtMb: round(chars / MB),
      targetMb: GLOBAL_TARGET_MB,
      reachedTarget: chars >= GLOBAL_TARGET_MB * MB,
      blobs,
      buildSeconds: round(buildSeconds),
      indexMbPerSec: round(chars / MB / (indexMs / 1000)),
      indexMbPerCpuSec: round(chars / MB / (indexCpuMs / 1000)),
      dbMb: round(statSync(join(dir, "index.db")).size / MB),
      globalSearchP50Ms: round(pct(times, 0.5), 2),
      globalSearchP90Ms: round(pct(times, 0.9), 2),
      perBlobSearchP50Ms: round(pct(oneBlob, 0.5), 2),
      chunks,
      indexOne192kCpuP50Ms: round(pct(addMs, 0.5), 2),
      removeOneCpuP50Ms: round(pct(removeMs, 0.5), 2),
    };
  } finally {
    db.close();
  }
}

/** Runs the fetch benchmarks; called from bench/run.ts. */
export async function benchFetch(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "spillway-fetch-bench-"));
  try {
    const load = { loadAverage1mAtStart: round(loadavg()[0]!, 2) };
    const grep = benchGrep();
    const blobSearch = benchBlobSearch(mkdtempSync(join(dir, "blob-")));
    const global = benchGlobalSearch(mkdtempSync(join(dir, "global-")));
    return { ...load, grep, blobSearch, global, loadAverage1mAtEnd: round(loadavg()[0]!, 2) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node --import tsx bench/fetchBench.ts` runs it alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchFetch(), null, 2));
}
