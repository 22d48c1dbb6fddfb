/** `spillway mcp` driven by raw bytes, for what an SDK client would never send: bad lines, huge lines. */
import { spawn, type ChildProcess } from "node:child_process";
import { LineReader } from "../../../core/mcp/lineReader";
import { BIN, ROOT } from "./setup";

export interface RawMessage {
  id?: string | number | null;
  result?: any;
  error?: { code: number; message: string };
  method?: string;
}

export interface RawStdio {
  child: ChildProcess;
  /** Writes bytes as they are (add the newline yourself). */
  write(bytes: Buffer | string): void;
  /** The next message the server writes. */
  next(): Promise<RawMessage>;
  /** Sends a request and waits for the message with its id. */
  request(id: number, method: string, params?: unknown): Promise<RawMessage>;
  /** Initialize plus notifications/initialized. */
  initialize(): Promise<void>;
  close(): Promise<number | null>;
}

export function rawStdio(home: string): RawStdio {
  const child = spawn(process.execPath, [BIN, "mcp", "--home", home], {
    cwd: ROOT,
    env: { ...process.env, SPILLWAY_SESSION_ID: "", CLAUDE_CODE_SESSION_ID: "" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stderr!.resume();
  const queue: RawMessage[] = [];
  const waiters: ((m: RawMessage) => void)[] = [];
  const reader = new LineReader({
    line: (l) => {
      const m = JSON.parse(l.toString("utf8")) as RawMessage;
      const w = waiters.shift();
      if (w) w(m);
      else queue.push(m);
    },
    oversized: () => {
      throw new Error("the server wrote a line over 64 MB");
    },
  });
  child.stdout!.on("data", (c: Buffer) => reader.push(c));
  const next = () => new Promise<RawMessage>((resolve) => (queue.length ? resolve(queue.shift()!) : waiters.push(resolve)));
  const write = (b: Buffer | string) => void child.stdin!.write(b);
  const api: RawStdio = {
    child,
    write,
    next,
    async request(id, method, params) {
      write(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }) + "\n");
      for (;;) {
        const m = await next();
        if (m.id === id) return m;
      }
    },
    async initialize() {
      await api.request(0, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
      write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    },
    close() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.stdin!.end();
      });
    },
  };
  return api;
}
