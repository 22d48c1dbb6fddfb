/**
 * The client side of MCP over stdio, for upstream servers Spillway spawns, in place of the SDK's
 * StdioClientTransport: answers up to 64 MB (the SDK's reader stops at 10 MB and drops the
 * connection, so a 12 MB result came back as "the server stopped"), read in linear time. An answer
 * over the limit is skipped and its request fails with a sentence naming the limit, while the
 * server stays connected for the next call.
 */
import { ANSWER_TOO_LARGE } from "./upstreamError";
import { spawn, type ChildProcess } from "node:child_process";
import { PassThrough, type Stream } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCNotification, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { decodeMessage, errorResponse, idOfOversized, looksLikeRequest, mb } from "./jsonRpcMessage";
import { LineReader, MAX_MESSAGE_BYTES, type OversizedLine } from "./lineReader";
import { writeLine } from "./stdioWrite";

export interface StdioServerParams {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** "pipe" makes `stderr` a stream the caller reads (available before start). */
  stderr?: "pipe" | "inherit" | "ignore";
  maxMessageBytes?: number;
}

/** How long a closing server gets after stdin ends, and again after SIGTERM. */
const CLOSE_GRACE_MS = 2_000;
/** JSON-RPC internal error: the answer exists but could not be read. Not -32000/-32001, which the SDK reads as closed/timeout. */
const ANSWER_UNREADABLE = -32603;

export class LineStdioClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly reader: LineReader;
  private readonly max: number;
  private readonly stderrStream: PassThrough | null;
  /** Requests in flight and what they asked for ("huge" for a tools/call of huge), to name an unreadable answer. */
  private readonly pending = new Map<RequestId, string>();

  constructor(private readonly params: StdioServerParams) {
    this.max = params.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.reader = new LineReader({ line: (l) => this.onLine(l), oversized: (o) => this.onOversized(o) }, this.max);
    this.stderrStream = params.stderr === "pipe" ? new PassThrough() : null;
  }

  /** The server's stderr when `stderr: "pipe"`. */
  get stderr(): Stream | null {
    return this.stderrStream;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error("LineStdioClientTransport already started.");
    const p = this.params;
    return new Promise((resolve, reject) => {
      const child = spawn(p.command, p.args ?? [], {
        env: p.env ?? (process.env as Record<string, string>),
        cwd: p.cwd,
        stdio: ["pipe", "pipe", p.stderr === "pipe" ? "pipe" : (p.stderr ?? "inherit")],
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      child.on("error", (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.on("spawn", () => resolve());
      child.on("close", () => {
        if (this.child === child) this.child = undefined;
        this.reader.end();
        this.pending.clear();
        this.onclose?.();
      });
      child.stdin!.on("error", (err) => this.onerror?.(err));
      child.stdout!.on("data", (chunk: Buffer) => this.reader.push(chunk));
      child.stdout!.on("error", (err) => this.onerror?.(err));
      if (this.stderrStream && child.stderr) child.stderr.pipe(this.stderrStream);
    });
  }

  private onLine(line: Buffer): void {
    const d = decodeMessage(line);
    if (!d.ok) {
      this.onerror?.(new Error(`the server wrote a line that is not a JSON-RPC message (${d.error.message})`));
      return;
    }
    const m = d.message;
    if (!isJSONRPCRequest(m) && !isJSONRPCNotification(m) && "id" in m) this.pending.delete(m.id as RequestId);
    this.onmessage?.(m);
  }

  private onOversized(o: OversizedLine): void {
    if (looksLikeRequest(o)) {
      this.onerror?.(
        new Error(`the server sent a request or notification of ${mb(o.bytes)}, over the ${mb(this.max)} limit; it was skipped`),
      );
      return;
    }
    let id = idOfOversized(o);
    if (id === null || !this.pending.has(id)) id = this.pending.size === 1 ? [...this.pending.keys()][0]! : null;
    if (id === null) {
      this.onerror?.(
        new Error(
          `the server sent an answer of ${mb(o.bytes)}, over the ${mb(this.max)} limit, for a request that cannot be told; it was skipped`,
        ),
      );
      return;
    }
    const what = this.pending.get(id)!;
    this.pending.delete(id);
    const message = `its answer to ${what} is ${mb(o.bytes)}, over the ${mb(this.max)} limit Spillway reads in one message; ask the tool for less (a narrower query, a page or a range)`;
    this.onmessage?.(errorResponse(id, { code: ANSWER_UNREADABLE, message, data: { reason: ANSWER_TOO_LARGE } }));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) throw new Error("Not connected");
    if (isJSONRPCRequest(message)) {
      const name = message.method === "tools/call" ? (message.params as { name?: unknown } | undefined)?.name : undefined;
      this.pending.set(message.id, typeof name === "string" ? name : message.method);
    } else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const rid = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (rid !== undefined) this.pending.delete(rid);
    }
    await writeLine(stdin, JSON.stringify(message));
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.reader.clear();
    if (!child) return;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("close", () => resolve());
    });
    const within = (ms: number) =>
      Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
    try {
      child.stdin?.end();
    } catch {
      /* already closed */
    }
    if (await within(CLOSE_GRACE_MS)) return;
    child.kill("SIGTERM");
    if (await within(CLOSE_GRACE_MS)) return;
    child.kill("SIGKILL");
  }
}
