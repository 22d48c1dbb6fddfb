/**
 * Which processes have a home's store open. Each process that opens it (the app, `spillway serve`,
 * an agent's `spillway mcp`, a CLI command) leaves `processes/<pid>` in the home while it has it
 * open; a process killed before it could remove its file is recognised as gone by its pid. Key
 * rotation and index repair refuse while another one runs: a running process keeps the old key
 * in memory (and would seal new results with it) and its open index (and would write into the file
 * a repair set aside).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, safeUnlink, writeFileAtomic } from "../fs/fsUtil";
import { processAlive } from "../runtime";

const DIR = "processes";

export interface StoreProcess {
  pid: number;
  /** The command it runs, as its argv says (`spillway serve`, the app…). */
  what: string;
  startedAt: number;
  /** The port it serves the endpoint on (spillway serve, the app), for doctor. */
  port?: number;
}

/** Notes this process as having the store open; the returned function removes the note. */
export function registerStoreProcess(home: string, now = Date.now()): () => void {
  const dir = join(home, DIR);
  const path = join(dir, String(process.pid));
  try {
    ensurePrivateDir(dir);
    const what = process.argv
      .slice(1, 3)
      .map((a) => a.split(/[\\/]/).pop())
      .join(" ");
    writeFileAtomic(path, JSON.stringify({ pid: process.pid, what, startedAt: now } satisfies StoreProcess));
  } catch {
    // Only the refusals above depend on it; the store works without.
    return () => {};
  }
  return () => void safeUnlink(path);
}

/** Adds to this process's note the port it serves the endpoint on (doctor checks that one). */
export function noteServePort(home: string, port: number): void {
  const path = join(home, DIR, String(process.pid));
  try {
    const note = JSON.parse(readFileSync(path, "utf8")) as StoreProcess;
    writeFileAtomic(path, JSON.stringify({ ...note, port } satisfies StoreProcess));
  } catch {
    // No note (the store could not write one): doctor checks the configured port only.
  }
}

/** The other live processes that have the store open (notes of dead ones are removed). */
export function otherStoreProcesses(home: string): StoreProcess[] {
  const dir = join(home, DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: StoreProcess[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    if (!processAlive(pid)) {
      safeUnlink(join(dir, name));
      continue;
    }
    let note: Partial<StoreProcess> = {};
    try {
      note = JSON.parse(readFileSync(join(dir, name), "utf8")) as Partial<StoreProcess>;
    } catch {
      /* a note half written: the pid is enough */
    }
    out.push({
      pid,
      what: typeof note.what === "string" ? note.what : "?",
      startedAt: Number(note.startedAt) || 0,
      ...(Number.isInteger(note.port) ? { port: note.port } : {}),
    });
  }
  return out;
}

/** The sentence naming them, for a refusal: `pid 123 (spillway.js serve), pid 456 (…)`. */
export function describeProcesses(list: StoreProcess[], home: string): string {
  const names = list.map((p) => `pid ${p.pid} (${p.what})`).join(", ");
  return `${names}; stop ${list.length === 1 ? "it" : "them"} first (if no such process is Spillway, remove its file in ${join(home, DIR)})`;
}
