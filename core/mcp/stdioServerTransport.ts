/**
 * The server side of MCP over stdio for `spillway mcp`, in place of the SDK's StdioServerTransport:
 * messages up to 64 MB (the SDK's reader stops at 10 MB and then ends the process), and every line
 * that is not a JSON-RPC message answered with a JSON-RPC error instead of dropped. The process
 * keeps serving after any bad or oversized line. It can take over from the early reader that
 * answered initialize (and tools/list) before the SDK loaded (earlyStdio.ts).
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCRequest, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { INVALID_REQUEST, decodeMessage, errorResponse, idOfOversized, looksLikeRequest, mb } from "./jsonRpcMessage";
import type { EarlyAnswer, StdinPrelude } from "./earlyStdio";
import { LineReader, MAX_MESSAGE_BYTES, type OversizedLine } from "./lineReader";
import { writeLine } from "./stdioWrite";

export interface StdioServerOptions {
  maxMessageBytes?: number;
  /** The early reader to take stdin over from: what it read is replayed first, its answers not repeated. */
  prelude?: StdinPrelude;
}

export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly reader: LineReader;
  private readonly max: number;
  private started = false;
  private closed = false;
  private readonly prelude: StdinPrelude | undefined;
  /** The requests the early reader answered, by id, until the Server's own answer to each is dropped. */
  private readonly answered = new Map<string | number, EarlyAnswer>();

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    opts: StdioServerOptions = {},
  ) {
    this.max = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.prelude = opts.prelude;
    this.reader = new LineReader({ line: (l) => this.onLine(l), oversized: (o) => this.onOversized(o) }, this.max);
  }

  private readonly onData = (chunk: Buffer | string) => this.reader.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => {
    this.reader.end();
    void this.close();
  };
  private readonly onStreamError = (err: Error) => this.onerror?.(err);

  async start(): Promise<void> {
    if (this.started) throw new Error("LineStdioServerTransport already started.");
    this.started = true;
    // Taken over and listened to in one tick, so no chunk falls between the two readers.
    const early = this.prelude?.handOver();
    this.stdin.on("data", this.onData);
    this.stdin.on("end", this.onEnd);
    this.stdin.on("close", this.onEnd);
    this.stdin.on("error", this.onStreamError);
    this.stdout.on("error", this.onStreamError);
    if (!early) return;
    for (const a of early.answered) this.answered.set(a.id, a);
    if (early.error) this.onerror?.(early.error);
    if (early.bytes.length > 0) this.reader.push(early.bytes);
    if (early.ended) this.onEnd();
  }

  /**
   * Whether `message` is the Server's answer to a request answered early (dropped, once). A
   * tools/list answered from the cache that the Server now answers otherwise (an upstream's list
   * changed since) is followed by list_changed, so the client lists again.
   */
  private answeredEarly(message: JSONRPCMessage): boolean {
    if (this.answered.size === 0 || "method" in message || !("id" in message) || message.id === undefined) return false;
    const a = this.answered.get(message.id);
    if (!a) return false;
    this.answered.delete(message.id);
    const own = JSON.stringify(message);
    if (own === a.answer) return true;
    if (a.method === "tools/list") {
      void writeLine(this.stdout, JSON.stringify({ method: "notifications/tools/list_changed", jsonrpc: "2.0" })).catch(() => {});
    } else {
      this.onerror?.(new Error(`stdio: the early ${a.method} answer differs from the server's: ${own.slice(0, 300)}`));
    }
    return true;
  }

  private onLine(line: Buffer): void {
    const d = decodeMessage(line);
    if (d.ok) {
      this.onmessage?.(d.message);
      return;
    }
    this.onerror?.(new Error(`stdio: answered a bad message with ${d.error.code}: ${d.error.message}`));
    void this.send(errorResponse(d.id, d.error)).catch(() => {});
  }

  private onOversized(o: OversizedLine): void {
    const id = idOfOversized(o);
    const message = `The message is ${mb(o.bytes)}, over the ${mb(this.max)} limit Spillway reads in one line; send less (pass a large value by spill:<id> or a file path).`;
    this.onerror?.(new Error(`stdio: skipped an oversized message (${mb(o.bytes)})`));
    if (looksLikeRequest(o)) void this.send(errorResponse(id, { code: INVALID_REQUEST, message })).catch(() => {});
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.answeredEarly(message)) return;
    let json = JSON.stringify(message);
    if (Buffer.byteLength(json) > this.max && "id" in message && !isJSONRPCRequest(message)) {
      // A reply this large would be dropped by the reader at the other end; say so instead.
      const error = {
        code: -32603,
        message: `The answer is ${mb(Buffer.byteLength(json))}, over the ${mb(this.max)} limit of one message; ask for less (a range or a narrower query).`,
      };
      json = JSON.stringify(errorResponse(message.id ?? null, error));
    }
    await writeLine(this.stdout, json);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("end", this.onEnd);
    this.stdin.off("close", this.onEnd);
    this.stdin.off("error", this.onStreamError);
    this.stdout.off("error", this.onStreamError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.reader.clear();
    this.onclose?.();
  }
}
