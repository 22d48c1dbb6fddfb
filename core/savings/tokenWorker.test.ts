import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { createTokenCounter } from "./tokens";
import { TokenWorker } from "./tokenWorker";

const log = (n: number) =>
  Array.from({ length: n }, (_, i) => `2026-11-30 INFO request ${i} served in ${i % 300} ms from cache node-${i % 7}`).join("\n") + "\n";
const TEXTS = [
  "",
  "hello world",
  "<|endoftext|> is just text here",
  "日本語のテキストを数える。".repeat(400),
  '{"a": [1, 2, 3]}\n'.repeat(900),
];

describe("token counts on a worker thread", () => {
  it("counts as this thread does: small texts whole, large ones in slices, larger ones from a sample", async () => {
    const here = createTokenCounter("o200k_base");
    const off = createTokenCounter("o200k_base", { offThread: true, onError: (m) => expect.fail(m) });
    expect(await off.countEach(TEXTS)).toEqual(TEXTS.map((t) => here.count(t)));
    const big = log(3_000);
    expect(await off.countAsync(big)).toBe(await here.countAsync(big));
    const bigger = log(40_000);
    expect(await off.measure(bigger)).toEqual(await here.measure(bigger));
    const cl = createTokenCounter("cl100k_base", { offThread: true });
    expect(await cl.countEach(["hello world", TEXTS[3]!])).toEqual([2, createTokenCounter("cl100k_base").count(TEXTS[3]!)]);
  });

  it("never loads the tokenizer in the thread that asks, nor keeps the process alive once done", () => {
    const home = tempHome();
    try {
      const script = join(home.path, "count.mts");
      writeFileSync(
        script,
        `import { createRequire } from "node:module";
import { createTokenCounter } from ${JSON.stringify(join(import.meta.dirname, "tokens.ts"))};
const t = createTokenCounter("o200k_base", { offThread: true });
const n = await t.countEach(["hello world", "a b c"]);
const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("o200k_base"));
console.log(JSON.stringify({ n, loaded }));
`,
      );
      const out = execFileSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 30_000 });
      expect(JSON.parse(out.trim())).toEqual({ n: [2, 3], loaded: false });
    } finally {
      home.cleanup();
    }
  });

  it("the engine counts a rescued call and a fetch exactly, without the answering thread loading the tokenizer", () => {
    const home = tempHome();
    try {
      const script = join(home.path, "engine.mts");
      const engine = JSON.stringify(join(import.meta.dirname, "..", "engine", "engine.ts"));
      writeFileSync(
        script,
        `import { createRequire } from "node:module";
import { createEngine } from ${engine};
const e = createEngine({ home: ${JSON.stringify(join(home.path, "store"))} });
const text = Array.from({ length: 900 }, (_, i) => \`step \${i}: compiled module src/m\${i}.ts in \${i % 97} ms\`).join("\\n");
const r = e.transformToolResult({ sessionId: "s", tool: "build", text });
const f = e.fetch({ sessionId: "s", id: r.blobId, mode: "grep", args: { pattern: "m1[0-9]\\\\.ts" } });
await e.idle();
const call = e.reader.lineage(r.blobId).calls[0];
const read = e.reader.eventDetail(f.eventId).event;
const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("o200k_base"));
await e.close();
console.log(JSON.stringify({ outcome: r.outcome, returned: call.returnedTokens, given: call.givenTokens, read: read.tokens, texts: [text, r.text, f.text], loaded }));
`,
      );
      const out = JSON.parse(
        execFileSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 60_000 }).trim().split("\n").pop()!,
      );
      const here = createTokenCounter("o200k_base");
      expect(out.outcome).toBe("rescued");
      expect({ returned: out.returned, given: out.given, read: out.read, loaded: out.loaded }).toEqual({
        returned: here.count(out.texts[0]),
        given: here.count(out.texts[1]),
        read: here.count(out.texts[2]),
        loaded: false,
      });
    } finally {
      home.cleanup();
    }
  });

  it("counts in this thread, and says so once, when the worker cannot load the tokenizer", async () => {
    const here = createTokenCounter("o200k_base");
    const broken = new TokenWorker(join(import.meta.dirname, "no-such-tokenizer.js"), (p) => here.count(p));
    const first = await broken.count(["hello world", TEXTS[4]!]);
    expect(first.counts).toEqual([2, here.count(TEXTS[4]!)]);
    expect(first.error).toMatch(/token-count worker/);
    expect((await broken.count(["a b c"])).counts).toEqual([3]);
    await broken.close();
    expect((await broken.count(["hello world"])).counts).toEqual([2]);
  });

  it("stops an idle worker, and starts another for the next count", async () => {
    const here = createTokenCounter("o200k_base");
    const w = new TokenWorker(createRequire(import.meta.url).resolve("gpt-tokenizer/cjs/encoding/o200k_base"), (p) => here.count(p), 100);
    expect(w.running).toBe(false);
    expect((await w.count(["hello world"])).counts).toEqual([2]);
    expect(w.running).toBe(true);
    await vi.waitFor(() => expect(w.running).toBe(false), { timeout: 5_000, interval: 20 });
    const again = await w.count(["a b c"]);
    expect(again).toEqual({ counts: [3] });
    expect(w.running).toBe(true);
    await w.close();
  });

  it("finishes the counts it was asked for when stopped, in this thread", async () => {
    const here = createTokenCounter("o200k_base");
    const w = new TokenWorker(createRequire(import.meta.url).resolve("gpt-tokenizer/cjs/encoding/o200k_base"), (p) => here.count(p));
    const asked = w.count(TEXTS);
    await w.close();
    expect((await asked).counts).toEqual(TEXTS.map((t) => here.count(t)));
  });
});
