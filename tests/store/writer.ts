// A child process that writes large tool results into a home as fast as it can, through the
// engine's real interception path. Used by the crash, two-process and WAL-loss tests.
// Sizes and contents come from a PRNG seeded by the tag, so every run writes the same results.
// Each line printed: "<outcome> <id> <chars> <sha256 of the UTF-8 text>".
// With "hold" it stops after `count` results without closing (nothing checkpointed), to be killed.
import { createHash } from "node:crypto";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { rng } from "../fixtures/seededRandom";

const [home, tag, countArg, mode] = process.argv.slice(2);
const count = Number(countArg ?? "1000000");
const random = rng([...tag!].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 11));
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
const engine = createEngine({ home: home!, logger: memoryLogger() });

for (let i = 0; i < count; i++) {
  // 0.2–1 MB, distinct per writer and iteration; every 7th repeats a shared payload
  const shared = i % 7 === 0;
  const size = shared ? 300_000 : 200_000 + Math.floor(random() * 800_000);
  const head = shared ? "shared payload\n" : `${tag} ${i} ${hex(16)}\n`;
  const text = head + "log line with some words in it\n".repeat(Math.ceil(size / 31));
  const r = engine.transformToolResult({ sessionId: `writer-${tag}`, tool: "build", args: { i }, text });
  process.stdout.write(`${r.outcome} ${r.blobId} ${text.length} ${createHash("sha256").update(text).digest("hex")}\n`);
}
if (mode === "hold") {
  process.stdout.write("holding\n");
  // Blocks the thread: no background task, no close, no checkpoint runs before the kill.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
await engine.close();
