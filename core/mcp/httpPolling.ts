/**
 * Polling for long requests over Streamable HTTP (SEP-1699): a request still unanswered after
 * `holdMs` has its SSE stream closed by the server, and again every `holdMs` after each resume;
 * the client reconnects with Last-Event-ID after the priming event's `retry` delay and gets what
 * was sent meanwhile from the session's event store. The SDK offers the close only to clients
 * that can resume (protocol 2025-11-25 or later, with an event store), so older ones keep one
 * open stream.
 *
 * A stream is closed again only once something was sent for its request since the last close:
 * the SDK client resumes from the last event id it saw on the stream that ended, and a resumed
 * stream that carried no event leaves it with none (it would then open a plain GET and lose the
 * request's answer).
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/** A transport that closes the stream of each request left unanswered for `holdMs`, until it is answered. */
export class PollingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private readonly polls = new Map<RequestId, { timer: NodeJS.Timeout; sent: boolean }>();

  constructor(
    readonly inner: Transport,
    private readonly holdMs: number,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onclose = () => {
      this.stopAll();
      this.onclose?.();
    };
    this.inner.onerror = (err) => this.onerror?.(err);
    this.inner.onmessage = (message, extra) => {
      const close = extra?.closeSSEStream;
      if (close && this.holdMs > 0 && isJSONRPCRequest(message)) {
        // The POST stream starts with the priming event: its first close needs nothing sent.
        const poll = { sent: true, timer: undefined as unknown as NodeJS.Timeout };
        poll.timer = setInterval(() => {
          if (!poll.sent) return;
          poll.sent = false;
          close();
        }, this.holdMs);
        // Never what keeps the process alive: the request's answer or the session's end clears it.
        poll.timer.unref();
        this.polls.set(message.id, poll);
      }
      this.onmessage?.(message, extra);
    };
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const poll = message.id === undefined ? undefined : this.polls.get(message.id);
      if (poll) {
        clearInterval(poll.timer);
        this.polls.delete(message.id!);
      }
    } else if (options?.relatedRequestId !== undefined) {
      const poll = this.polls.get(options.relatedRequestId);
      if (poll) poll.sent = true;
    }
    return this.inner.send(message, options);
  }

  async close(): Promise<void> {
    this.stopAll();
    return this.inner.close();
  }

  private stopAll(): void {
    for (const p of this.polls.values()) clearInterval(p.timer);
    this.polls.clear();
  }
}
