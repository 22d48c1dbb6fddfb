/**
 * Fetches in the time of the answer: stat from the row, range and grep from the windows they
 * serve (through the line index kept beside the blob), outline kept after its first build.
 * Shown by damaging the parts of the file an answer must not read: the old whole-blob read
 * refused every one of these fetches as damaged.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { parseConfig } from "../config/config";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { scanSearch } from "../search/scanSearch";
import { createEngine, engineInternals } from "./engine";

const MB = 1024 * 1024;

/** About `mb` MiB of build log, ASCII (chars = bytes), an error line every 997 lines. */
function buildLog(mb: number): string {
  const parts: string[] = [];
  for (let i = 0, n = 0; n < mb * MB; i++) {
    const line =
      i % 997 === 13
        ? `${String(i).padStart(7, "0")} ERROR upload of chunk ${i} failed`
        : `${String(i).padStart(7, "0")} INFO compiled src/file${i}.ts`;
    parts.push(line);
    n += line.length + 1;
  }
  return parts.join("\n") + "\n";
}

/** Overwrites `[from, to)` of a file with other bytes, keeping its size. */
function scribble(path: string, from: number, to: number): void {
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(to - from, "#"), 0, to - from, from);
  closeSync(fd);
}

describe("fetch in parts", () => {
  const home = tempHome();
  afterAll(() => home.cleanup());
  const e = createEngine({ home: home.path, config: parseConfig({}), clock: new FakeClock(), logger: memoryLogger() });
  afterAll(() => e.close());
  const p = engineInternals(e);
  const text = buildLog(3);
  const lines = text.split("\n").slice(0, -1);
  const id = e.transformToolResult({ sessionId: "s", tool: "build", text }).blobId!;
  const file = p.store.files.pathOf(id);
  const fetch = (mode: string, args?: Record<string, unknown>) => e.fetch({ sessionId: "s", id, mode, args });

  it("answers stat, range, grep and a kept outline without reading the parts of the file they do not serve", () => {
    const before = fetch("outline").text;
    // The first range builds the line index from the verified text, and keeps it beside the blob.
    expect(fetch("range", { start: 10, count: 3 }).text).toBe(
      `lines 10–12 of ${lines.length.toLocaleString("en-US")} in ${id}:\n${lines.slice(10, 13).join("\n")}`,
    );
    expect(existsSync(`${file}.lines`)).toBe(true);
    expect(existsSync(`${file}.outline`)).toBe(true);

    // Everything after the first 1 MiB chunk is overwritten: a whole read would find it damaged.
    scribble(file, MB, statSync(file).size);

    expect(fetch("stat").text).toMatch(new RegExp(`size: ${text.length.toLocaleString("en-US")} chars`));
    expect(fetch("range", { start: 2000, count: 2 }).text).toBe(
      `lines 2000–2001 of ${lines.length.toLocaleString("en-US")} in ${id}:\n${lines.slice(2000, 2002).join("\n")}`,
    );
    const start = text.indexOf("\n", 500_000) + 1;
    expect(fetch("range", { start_char: start, count_chars: 40 }).text).toContain(text.slice(start, start + 40));
    expect(fetch("outline").text).toBe(before);
    const grep = fetch("grep", { pattern: "INFO compiled" });
    expect(grep.isError).toBe(false);
    expect(grep.text).toContain(`L0: ${lines[0]}`);

    // A range inside the damaged part is refused as damaged, never served.
    const bad = fetch("range", { start: lines.length - 5, count: 2 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(new RegExp(`^The result ${id} from build cannot be served: its stored copy is damaged`));
  });

  it("states the count of matches past a full answer as a bound, and counts a small blob exactly", () => {
    const big = e.transformToolResult({ sessionId: "s", tool: "build", text: buildLog(2) }).blobId!;
    const bounded = e.fetch({ sessionId: "s", id: big, mode: "grep", args: { pattern: "compiled" } }).text;
    expect(bounded).toMatch(/^grep \/compiled\/i in \w+: at least [\d,]+ matching lines of [\d,]+ \(counted through line [\d,]+\)\n/);
    expect(bounded).toMatch(/\[showed \d+ of at least [\d,]+ matching lines/);
    const small = buildLog(0.1);
    const few = e.transformToolResult({ sessionId: "s", tool: "build", text: small }).blobId!;
    const exact = small.split("\n").filter((l) => /compiled/i.test(l)).length;
    expect(e.fetch({ sessionId: "s", id: few, mode: "grep", args: { pattern: "compiled" } }).text).toMatch(
      new RegExp(`^grep /compiled/i in ${few}: ${exact.toLocaleString("en-US")} matching lines of`),
    );
  });

  it("counts the files kept beside a blob in the size cap and removes them with it", () => {
    const row = p.store.row(id)!;
    const kept = statSync(`${file}.lines`).size + statSync(`${file}.outline`).size;
    expect(row.aux_bytes).toBe(kept);
    expect(e.reader.usedBytes()).toBeGreaterThanOrEqual(row.bytes + kept);
    expect(e.purge(id)).toBe(true);
    expect([existsSync(file), existsSync(`${file}.lines`), existsSync(`${file}.outline`)]).toEqual([false, false, false]);
  });

  it("a deep sweep removes files kept beside a blob that is gone, and keeps those of live blobs", () => {
    const live = e.transformToolResult({ sessionId: "s", tool: "build", text: buildLog(0.1) }).blobId!;
    expect(e.fetch({ sessionId: "s", id: live, mode: "range", args: { start: 0, count: 1 } }).isError).toBe(false);
    const liveIndex = `${p.store.files.pathOf(live)}.lines`;
    // Left by a process killed between a blob's removal and its kept files' (written long ago).
    const orphan = `${p.store.files.pathOf("abcdef012345")}.lines`;
    mkdirSync(dirname(orphan), { recursive: true });
    writeFileSync(orphan, readFileSync(liveIndex));
    const old = new Date(Date.now() - 3_600_000);
    for (const f of [orphan, liveIndex]) utimesSync(f, old, old);
    const report = e.sweep(true);
    expect(report.tempFiles).toBeGreaterThanOrEqual(1);
    expect([existsSync(orphan), existsSync(liveIndex)]).toEqual([false, true]);
  });

  it("builds again a kept file that a power loss left empty, torn or zeroed (they are written without waiting for the disk)", () => {
    const small = buildLog(0.2);
    const smallLines = small.split("\n").slice(0, -1);
    const sid = e.transformToolResult({ sessionId: "s", tool: "build", text: small }).blobId!;
    const path = p.store.files.pathOf(sid);
    const ask = () => ({
      range: e.fetch({ sessionId: "s", id: sid, mode: "range", args: { start: 1500, count: 2 } }),
      outline: e.fetch({ sessionId: "s", id: sid, mode: "outline" }),
    });
    const good = ask();
    expect(good.range.text).toBe(
      `lines 1500–1501 of ${smallLines.length.toLocaleString("en-US")} in ${sid}:\n${smallLines.slice(1500, 1502).join("\n")}`,
    );
    const kept = { lines: readFileSync(`${path}.lines`), outline: readFileSync(`${path}.outline`) };
    const damages: [string, (b: Buffer) => Buffer][] = [
      ["empty", () => Buffer.alloc(0)],
      ["torn", (b) => b.subarray(0, b.length >> 1)],
      ["zeroed", (b) => Buffer.alloc(b.length)],
      ["zero tail", (b) => Buffer.concat([b.subarray(0, b.length >> 1), Buffer.alloc(b.length - (b.length >> 1))])],
    ];
    for (const [name, damage] of damages) {
      writeFileSync(`${path}.lines`, damage(kept.lines));
      writeFileSync(`${path}.outline`, damage(kept.outline));
      const again = ask();
      expect({ name, range: again.range.text, outline: again.outline.text }).toEqual({
        name,
        range: good.range.text,
        outline: good.outline.text,
      });
      // Built again and kept: the next answers read the good files.
      expect(readFileSync(`${path}.lines`).equals(kept.lines)).toBe(true);
      expect(readFileSync(`${path}.outline`).equals(kept.outline)).toBe(true);
    }
  });

  it("reads a credential blob whole, masked, and keeps nothing in clear beside it", () => {
    const secret = `${buildLog(0.2)}AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY1\n`;
    const sid = e.transformToolResult({ sessionId: "s", tool: "deploy", text: secret }).blobId!;
    const path = p.store.files.pathOf(sid);
    const last = secret.split("\n").length - 2;
    const answer = e.fetch({ sessionId: "s", id: sid, mode: "range", args: { start: last, count: 1 } }).text;
    expect(answer).toMatch(/AWS_SECRET_ACCESS_KEY=/);
    expect(answer).not.toContain("wJalrXUtnFEMI");
    expect(e.fetch({ sessionId: "s", id: sid, mode: "outline" }).isError).toBe(false);
    expect([existsSync(`${path}.lines`), existsSync(`${path}.outline`)]).toEqual([false, false]);
    expect(readFileSync(path).includes("wJalrXUtnFEMI")).toBe(false);
  });
});

describe("the first search of a big blob not yet indexed", () => {
  const home = tempHome();
  afterAll(() => home.cleanup());
  const e = createEngine({ home: home.path, config: parseConfig({}), clock: new FakeClock(), logger: memoryLogger() });
  afterAll(() => e.close());

  it("answers from a scan of the text at once, and from the index once the background indexing is done", async () => {
    const text = buildLog(2);
    const id = e.transformToolResult({ sessionId: "s", tool: "build", text }).blobId!;
    const search = () => e.fetch({ sessionId: "s", id, mode: "search", args: { query: "upload failed", top_k: 3 } }).text;
    // Nothing has been awaited since the rescue: its background indexing has not run.
    expect(engineInternals(e).search.isIndexed(id)).toBe(false);
    const scanned = search();
    expect(scanned).toMatch(/3 best chunks by BM25 over a scan of the text \(its index is being built\)/);
    expect(engineInternals(e).search.isIndexed(id)).toBe(false);
    const first = /^1\. lines (\d+)–(\d+)/m.exec(scanned)!;
    expect(
      text
        .split("\n")
        .slice(Number(first[1]), Number(first[2]) + 1)
        .join("\n"),
    ).toMatch(/upload of chunk \d+ failed/);
    await e.idle();
    expect(engineInternals(e).search.isIndexed(id)).toBe(true);
    // The background work after the rescue also built its line index, from the text in hand.
    expect(existsSync(`${engineInternals(e).store.files.pathOf(id)}.lines`)).toBe(true);
    const indexed = search();
    expect(indexed).toMatch(/3 best chunks by BM25 \(terms: upload, failed\)/);
    expect(indexed).toMatch(/ERROR upload of chunk \d+ failed/);
  });

  it("answers the next searches until the index is done from the same scan, without reading the blob again", async () => {
    const p = engineInternals(e);
    const text = buildLog(3);
    const id = e.transformToolResult({ sessionId: "s", tool: "build", text }).blobId!;
    const search = (query: string) => e.fetch({ sessionId: "s", id, mode: "search", args: { query, top_k: 3 } }).text;
    const scanned = /3 best chunks by BM25 over a scan of the text \(its index is being built\)/;
    const first = search("upload failed");
    expect(first).toMatch(scanned);
    // Past the first MiB the file is overwritten: a second read of the blob would refuse it as damaged.
    const file = p.store.files.pathOf(id);
    scribble(file, MB, statSync(file).size);
    expect(search("upload failed")).toBe(first);
    const other = search("compiled file4242");
    expect(other).toMatch(scanned);
    const best = scanSearch(id, text, "log", "compiled file4242", 3)[0]!;
    expect(other).toContain(`1. lines ${best.startLine}–${best.endLine} (chars ${best.startChar}–${best.endChar - 1})`);
    expect(other).toContain("compiled src/file4242.ts");
    expect(p.search.isIndexed(id)).toBe(false);
    await e.idle();
    // Indexed from the text the scan kept (verified when it was read), not from the damaged file.
    expect(p.search.isIndexed(id)).toBe(true);
    const indexed = search("upload failed");
    expect(indexed).toMatch(/3 best chunks by BM25 \(terms: upload, failed\)/);
    expect(indexed).toMatch(/ERROR upload of chunk \d+ failed/);
  });
});
