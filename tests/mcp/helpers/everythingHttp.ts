/** The real server-everything over HTTP (Streamable HTTP or the older HTTP+SSE), on a port of the test's choosing. */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { upstream } from "./setup";

/** A loopback port free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** server-everything in its `streamableHttp` (at /mcp) or `sse` (at /sse) mode on `port`, once it says it listens. */
export async function everythingOver(mode: "streamableHttp" | "sse", port: number): Promise<ChildProcess> {
  const ev = upstream.everything();
  const child = spawn(ev.command, [ev.args[0]!, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on("data", (d) => /listening|running on port/.test(String(d)) && resolve());
    child.on("exit", (code) => reject(new Error(`server-everything exited (${code})`)));
  });
  return child;
}
