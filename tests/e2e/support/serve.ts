/** Starts `spillway serve` as a real process on a free port and reads its printed URLs. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { BIN, ROOT } from "../../mcp/helpers/setup";

export interface Served {
  url: string;
  loginUrl: string;
  token: string;
  home: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** `args`: more options for `spillway serve` (a `--config` elsewhere); `port`: the one to use (a restart on the same port), else a free one. */
export async function startServe(home: string, args: string[] = [], port?: number): Promise<Served> {
  port ??= await freePort();
  const proc = spawn(process.execPath, [BIN, "serve", "--home", home, "--port", String(port), ...args], {
    cwd: ROOT,
    env: { ...process.env, SPILLWAY_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  proc.stdout!.on("data", (c) => (out += c));
  proc.stderr!.on("data", (c) => (err += c));
  const loginUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`spillway serve did not start in 60 s:\n${out}\n${err.slice(-2000)}`)), 60_000);
    const check = () => {
      const m = /inspector:\s+(http:\/\/\S+\/login\?t=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on("data", check);
    proc.once("exit", (code) => reject(new Error(`spillway serve exited (${code}):\n${out}\n${err.slice(-2000)}`)));
  });
  const url = new URL(loginUrl).origin;
  return {
    url,
    loginUrl,
    token: readFileSync(join(home, "token"), "utf8").trim(),
    home,
    proc,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.kill("SIGTERM");
        setTimeout(() => proc.kill("SIGKILL"), 5_000).unref();
      }),
  };
}

/** Calls an inspector operation with the bearer token (what a script would do). */
export async function api<T>(s: { url: string; token: string }, op: string, body: unknown = {}): Promise<T> {
  const r = await fetch(`${s.url}/api/${op}`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const j = (await r.json()) as { ok: boolean; value: T; error?: { message: string } };
  if (!j.ok) throw new Error(`${op}: ${j.error?.message}`);
  return j.value;
}

/** Swaps a login link for the session cookie, as the browser would. */
export async function loginCookie(loginUrl: string): Promise<{ name: string; value: string }> {
  const r = await fetch(loginUrl, { redirect: "manual" });
  const set = r.headers.get("set-cookie");
  if (r.status !== 303 || !set) throw new Error(`login failed: ${r.status}`);
  const [name, value] = set.split(";")[0]!.split("=") as [string, string];
  return { name, value };
}

/** A fresh one-time login link, minted with the bearer token. */
export async function newLoginUrl(s: { url: string; token: string }): Promise<string> {
  const r = await fetch(`${s.url}/login/new`, { method: "POST", headers: { authorization: `Bearer ${s.token}` } });
  return ((await r.json()) as { value: { url: string } }).value.url;
}
