/** Child processes for the store tests: helper scripts and the real CLI, with their output awaited as events. */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "bin/spillway.js");

export interface Child {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  lines(): string[];
  stderr(): string;
  /** Resolves with the first stdout line that matches (already printed or to come); rejects if the child exits first. */
  line(match: RegExp): Promise<string>;
}

/** Runs a TypeScript helper in its own Node process. */
export function spawnScript(script: string, args: string[], env: Record<string, string> = {}): Child {
  return wrap(
    spawn(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

/** Runs `spillway <args>` (the real CLI) against a home; resolves when it exits. */
export async function runCli(home: string, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const c = wrap(spawn(process.execPath, [BIN, ...args, "--home", home], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] }));
  const { code } = await c.done;
  return { code, out: c.lines().join("\n"), err: c.stderr() };
}

function wrap(child: ChildProcess): Child {
  let out = "";
  let err = "";
  let waiting: { match: RegExp; resolve: (l: string) => void }[] = [];
  const lines = () => out.split("\n").filter(Boolean);
  child.stdout!.on("data", (d) => {
    out += d;
    waiting = waiting.filter((w) => {
      const hit = lines().find((l) => w.match.test(l));
      if (hit !== undefined) w.resolve(hit);
      return hit === undefined;
    });
  });
  child.stderr!.on("data", (d) => (err += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on("exit", (code, signal) => r({ code, signal })),
  );
  return {
    child,
    done,
    lines,
    stderr: () => err,
    line(match) {
      const hit = lines().find((l) => match.test(l));
      if (hit !== undefined) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        waiting.push({ match, resolve });
        void done.then(({ code, signal }) =>
          reject(new Error(`child exited (${code ?? signal}) before printing ${match}: ${err.slice(-2000)}`)),
        );
      });
    },
  };
}
