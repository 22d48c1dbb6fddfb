/** What the global setup hands the specs: servers, ids, and the browser storage with the session cookies. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../mcp/helpers/setup";
import type { TrafficIds } from "./traffic";

export const STATE_DIR = join(ROOT, "test-results", "e2e-state");
export const STATE_FILE = join(STATE_DIR, "state.json");
export const STORAGE_FILE = join(STATE_DIR, "storage.json");
export const SCREENSHOTS = join(ROOT, "tests", "screenshots");

export interface ServerInfo {
  url: string;
  token: string;
  home: string;
}

export interface E2EState {
  main: ServerInfo;
  bulk: ServerInfo;
  /** A store with 1,500 sessions, served with a config file outside its home. */
  many: ServerInfo & { config: string };
  /** An empty store the Import and Replay specs fill. */
  history: ServerInfo;
  /** A store with one session of 2,000 calls. */
  calls: ServerInfo & { session: string };
  ids: TrafficIds & { big: string; gamma: string; gammaLog: string; hook: string };
  big: { chars: number; lines: number };
  setupMs: number;
}

export function e2eState(): E2EState {
  return JSON.parse(readFileSync(STATE_FILE, "utf8")) as E2EState;
}
