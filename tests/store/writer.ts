// A child process that writes large tool results into a home as fast as it can, through the
// engine's real interception path. Used by the crash and two-process tests.
import { randomBytes } from "node:crypto";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";

const [home, tag, countArg] = process.argv.slice(2);
const count = Number(countArg ?? "1000000");
const engine = createEngine({ home: home!, logger: memoryLogger() });

for (let i = 0; i < count; i++) {
  // 0.2–1 MB, distinct per writer and iteration; every 7th repeats a shared payload
  const shared = i % 7 === 0;
  const size = shared ? 300_000 : 200_000 + Math.floor(Math.random() * 800_000);
  const head = shared ? "shared payload\n" : `${tag} ${i} ${randomBytes(8).toString("hex")}\n`;
  const text = head + "log line with some words in it\n".repeat(Math.ceil(size / 31));
  const r = engine.transformToolResult({ sessionId: `writer-${tag}`, tool: "build", args: { i }, text });
  process.stdout.write(`${r.outcome} ${r.blobId} ${text.length}\n`);
}
await engine.close();
