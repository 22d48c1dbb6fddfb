/** A loopback HTTP relay in front of the endpoint, for tests that hold, cut or refuse what passes between a client and it. */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** Sends the request on to the endpoint and its answer back; `cutAfter` sees each chunk once written, and true cuts the connection there. */
export type Forward = (cutAfter?: (chunk: Buffer) => boolean) => void;

export interface Relay {
  url: string;
  close(): Promise<void>;
}

/** Starts a relay to 127.0.0.1:`targetPort`; `route` gets each request read whole, and forwards it, holds it or answers it itself. */
export async function startRelay(
  targetPort: number,
  route: (req: IncomingMessage, res: ServerResponse, body: Buffer, forward: Forward) => void,
  onClose: () => void = () => {},
): Promise<Relay> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      route(req, res, body, (cutAfter) => {
        const up = request(
          {
            host: "127.0.0.1",
            port: targetPort,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: `127.0.0.1:${targetPort}` },
          },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.on("data", (c: Buffer) => {
              res.write(c);
              if (cutAfter?.(c)) {
                res.destroy();
                r.destroy();
              }
            });
            r.on("end", () => res.end());
          },
        );
        up.on("error", () => res.destroy());
        res.on("close", () => up.destroy());
        up.end(body);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`,
    close: () =>
      new Promise<void>((r) => {
        onClose();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Calls the fixture's `slow` tool (one progress message per step, 60 ms apart) and collects its progress messages. */
export async function slowCall(c: Client, steps: number): Promise<{ result: CallToolResult; progress: string[] }> {
  const progress: string[] = [];
  const result = (await c.request({ method: "tools/call", params: { name: "slow", arguments: { steps, ms: 60 } } }, CallToolResultSchema, {
    onprogress: (p) => progress.push(p.message ?? String(p.progress)),
  })) as CallToolResult;
  return { result, progress };
}

/** The progress messages of `slow` with `n` steps. */
export const steps = (n: number): string[] => Array.from({ length: n }, (_, i) => `step ${i + 1}`);
