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
import { TransportWrapper } from "./transportWrapper";

/** A transport that closes the stream of each request left unanswered for `holdMs`, until it is answered. */
export class PollingTransport extends TransportWrapper {
  private readonly polls = new Map<RequestId, { timer: NodeJS.Timeout; sent: boolean }>();

  constructor(
    inner: Transport,
    private readonly holdMs: number,
  ) {
    super(inner);
  }

  protected override closed(): void {
    this.stopAll();
    this.onclose?.();
  }

  protected override received(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
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
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
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

  override async close(): Promise<void> {
    this.stopAll();
    return this.inner.close();
  }

  private stopAll(): void {
    for (const p of this.polls.values()) clearInterval(p.timer);
    this.polls.clear();
  }
}
