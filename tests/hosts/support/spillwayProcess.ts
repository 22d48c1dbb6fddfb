/** Spillway as a user runs it for a host test: `spillway serve` as its own process, `spillway connect` as printed. */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ROOT, runProcess } from "./claudeCli";

export const SPILLWAY_BIN = join(ROOT, "bin/spillway.js");

export interface ServeProcess {
  port: number;
  pid: number;
  /** http://127.0.0.1:PORT */
  url: string;
  stop(): Promise<void>;
}

/** `spillway serve --home H --port 0`, resolved once it prints the URL it serves. */
export function startServe(home: string): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [SPILLWAY_BIN, "serve", "--home", home, "--port", "0"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (c: Buffer) => (err += c));
    child.stdout!.on("data", (c: Buffer) => {
      out += c;
      const m = /serving (http:\/\/127\.0\.0\.1:(\d+))\/mcp/.exec(out);
      if (m) {
        resolve({
          port: Number(m[2]),
          pid: child.pid!,
          url: m[1]!,
          stop: async () => {
            if (child.exitCode === null) child.kill("SIGTERM");
            await exited;
          },
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`spillway serve exited with ${code}: ${out}${err}`)));
  });
}

/** What `spillway connect <agent> --home H --port P` prints. */
export async function connectOutput(agent: string, home: string, port: number): Promise<string> {
  const r = await runProcess(process.execPath, [SPILLWAY_BIN, "connect", agent, "--home", home, "--port", String(port)], {
    cwd: ROOT,
    env: process.env as Record<string, string>,
    timeoutMs: 30_000,
  });
  if (r.code !== 0) throw new Error(`spillway connect ${agent} failed: ${r.stderr}`);
  return r.stdout;
}
