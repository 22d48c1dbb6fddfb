/**
 * The server side of MCP over stdio for `spillway mcp`, in place of the SDK's StdioServerTransport:
 * messages up to 64 MB (the SDK's reader stops at 10 MB and then ends the process), and every line
 * that is not a JSON-RPC message answered with a JSON-RPC error instead of dropped. The process
 * keeps serving after any bad or oversized line.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCRequest, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { INVALID_REQUEST, decodeMessage, errorResponse, idOfOversized, looksLikeRequest, mb } from "./jsonRpcMessage";
import { LineReader, MAX_MESSAGE_BYTES, type OversizedLine } from "./lineReader";
import { writeLine } from "./stdioWrite";

export interface StdioServerOptions {
  maxMessageBytes?: number;
}

export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly reader: LineReader;
  private readonly max: number;
  private started = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    opts: StdioServerOptions = {},
  ) {
    this.max = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
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
    this.stdin.on("data", this.onData);
    this.stdin.on("end", this.onEnd);
    this.stdin.on("close", this.onEnd);
    this.stdin.on("error", this.onStreamError);
    this.stdout.on("error", this.onStreamError);
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
    if (this.closed) return;
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
