import { createEngine } from "../engine/engine";
import { memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { blobLink, listBlobResources } from "./blobResources";

describe("a stored result as an MCP resource", () => {
  it("gives its size in bytes, as MCP counts it, not in characters", async () => {
    const home = tempHome();
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    try {
      // 2 bytes per "é" in UTF-8: 30,000 chars, 45,000 bytes.
      const text = Array.from({ length: 1_000 }, (_, i) => `résumé ${String(i).padStart(4, "0")} déjà vu à côté\n`).join("");
      const r = engine.transformToolResult({ sessionId: "s", tool: "read", server: "fs", args: {}, text });
      expect(r.blobId).toMatch(/^[0-9a-f]{12}$/);
      const bytes = Buffer.byteLength(text, "utf8");
      expect(bytes).toBeGreaterThan(text.length);
      expect(blobLink(engine, r.blobId!).size).toBe(bytes);
      expect(listBlobResources(engine, "s")[0]!.size).toBe(bytes);
    } finally {
      await engine.close();
      home.cleanup();
    }
  });
});
