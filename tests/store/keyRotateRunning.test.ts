// `spillway key rotate` while `spillway serve` has the store open: refused, naming the process, and
// nothing changed (a running process keeps the old key and would seal new results with it); once
// serve stops, the rotation runs and every credential result still reads back.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { smallSecrets } from "../fixtures/secrets/smallSecrets";
import { startServe } from "../hosts/support/spillwayProcess";
import { tempHome } from "../helpers/tempHome";
import { runCli } from "./children";

describe("rotating the key", () => {
  it("is refused while another Spillway process uses the store, and runs once it stopped", async () => {
    const home = tempHome();
    const key = smallSecrets(11).values[12]!;
    const text = Array.from({ length: 800 }, (_, i) => `deploy step ${i}: ok`).join("\n") + `\nAWS_ACCESS_KEY_ID=${key}\n`;
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    const stored = engine.transformToolResult({ sessionId: "s", tool: "deploy", text });
    await engine.idle();
    expect(engine.reader.meta(stored.blobId!)?.encrypted).toBe(true);
    await engine.close();
    const keyBefore = readFileSync(join(home.path, "key"), "utf8");

    const serve = await startServe(home.path);
    try {
      const refused = await runCli(home.path, "key", "rotate");
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(
        new RegExp(
          `^spillway key: the key cannot be rotated while other Spillway processes use this store, as they keep the old key: pid ${serve.pid} \\(spillway\\.js serve\\); stop it first`,
          "m",
        ),
      );
      expect(readFileSync(join(home.path, "key"), "utf8")).toBe(keyBefore);
    } finally {
      await serve.stop();
    }
    const rotated = await runCli(home.path, "key", "rotate");
    expect(rotated.out).toMatch(/^key rotated: 1 encrypted blob re-encrypted under the new key$/m);
    expect(readFileSync(join(home.path, "key"), "utf8")).not.toBe(keyBefore);
    const after = createEngine({ home: home.path, logger: memoryLogger() });
    // Decrypted under the new key, byte for byte (the operator's revealed view).
    expect(after.operatorBlob(stored.blobId!, true)?.text).toBe(text);
    await after.close();
    home.cleanup();
  }, 120_000);
});
