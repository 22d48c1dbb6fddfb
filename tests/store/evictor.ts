// A child process that fills a home with a 1 MB cap until the engine evicts, and stops dead
// inside the eviction transaction (right after a row became a tombstone, before the commit),
// printing "tombstoned <id>", so the parent can SIGKILL it exactly there.
import { writeSync } from "node:fs";
import { parseConfig } from "../../core/config/config";
import { createEngine } from "../../core/engine/engine";
import { FakeClock, memoryLogger } from "../../core/runtime";

const [home] = process.argv.slice(2);
// A minute between results: a result is evictable once past the grace of a just-given handle.
const clock = new FakeClock();
const engine = createEngine({
  home: home!,
  clock,
  config: parseConfig({ store: { maxStoreMb: 1 } }),
  logger: memoryLogger(),
  storeHooks: {
    afterTombstone(id) {
      writeSync(1, `tombstoned ${id}\n`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    },
  },
});
for (let i = 0; i < 100; i++) {
  const text = `result ${i}\n` + `row ${i} of a large listing\n`.repeat(12_000);
  const r = engine.transformToolResult({ sessionId: "evictor", tool: "list", args: { i }, text });
  writeSync(1, `${r.outcome} ${r.blobId}\n`);
  clock.advance(60_000);
  // As a server between two requests: the engine's background work (eviction among it) runs here.
  await new Promise<void>((resolve) => setImmediate(resolve));
}
await engine.close();
