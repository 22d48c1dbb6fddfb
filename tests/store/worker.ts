// A child process that works one home the way a busy `spillway mcp` does: small, dedup-sized
// and rescued results, fetches and searches, yielding to the event loop between calls so the
// background tasks (token counts, search indexing) run alongside the other processes' writes.
// Logs go to stderr, where the parent looks for "database is locked".
import { createEngine } from "../../core/engine/engine";
import { stderrLogger } from "../../core/runtime";
import { rng } from "../fixtures/seededRandom";

const [home, tag, countArg] = process.argv.slice(2);
const count = Number(countArg ?? "150");
const random = rng([...tag!].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
const engine = createEngine({ home: home!, logger: stderrLogger("info") });
const words = ["alpha", "beta", "gamma", "delta", "error", "warning", "module", "build", "test", "cache"];
const text = (lines: number, salt: string) =>
  Array.from({ length: lines }, (_, i) => `${salt} ${i} ${words[Math.floor(random() * words.length)]} ${Math.floor(random() * 1e6)}`).join(
    "\n",
  );

const session = `worker-${tag}`;
for (let i = 0; i < count; i++) {
  const kind = i % 4;
  const body =
    kind === 0
      ? text(10, `${tag}-${i}`)
      : kind === 1
        ? text(120, "shared dedup payload")
        : text(600 + Math.floor(random() * 1500), `${tag}-${i}`);
  const r = engine.transformToolResult({
    sessionId: session,
    tool: kind === 1 ? "read" : "build",
    args: { i: kind === 1 ? 0 : i },
    text: body,
  });
  if (r.blobId && i % 5 === 0) engine.fetch({ sessionId: session, id: r.blobId, mode: "search", args: { query: "error module" } });
  process.stdout.write(`${r.outcome} ${r.blobId ?? "-"}\n`);
  await new Promise<void>((resolve) => setImmediate(resolve));
}
await engine.idle();
await engine.close();
process.stdout.write("done\n");
