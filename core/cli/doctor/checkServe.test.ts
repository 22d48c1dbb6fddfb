import { createServer as createHttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { checkServe } from "./checkServe";

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, "127.0.0.1", () => r((s.address() as AddressInfo).port)));
const close = (s: Server) => new Promise<void>((r) => s.close(() => r()));

describe("doctor's serve check", () => {
  it("says serve answers when an HTTP server is on the port", async () => {
    const s = createHttpServer((_req, res) => res.writeHead(401).end());
    const port = await listen(s);
    try {
      expect(await checkServe(port)).toEqual({
        ok: true,
        name: "serve",
        detail: expect.stringContaining(`answers at http://127.0.0.1:${port}`),
      });
    } finally {
      await close(s);
    }
  });

  it("says what an agent's hooks do when nothing listens, without failing (stdio needs no serve)", async () => {
    const s = createServer();
    const port = await listen(s);
    await close(s);
    const r = await checkServe(port);
    expect(r.ok).toBe(true);
    expect(r.detail).toMatch(/^not running at .*fail open \(outputs reach the model unmasked and unstored\)/);
  });

  it("fails for a process that accepts connections and never answers (a stopped or hung serve)", async () => {
    const held: Socket[] = [];
    const s = createServer((socket) => void held.push(socket));
    const port = await listen(s);
    try {
      const r = await checkServe(port, 300);
      expect(r.ok).toBe(false);
      expect(r.detail).toMatch(
        /does not answer within 0\.3 s .*every hooked tool call waits out its hook's timeout; restart spillway serve/,
      );
    } finally {
      for (const c of held) c.destroy();
      await close(s);
    }
  });
});
