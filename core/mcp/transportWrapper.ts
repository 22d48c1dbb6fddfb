/** A transport in front of another one, for the layers that look at or answer messages on their way (checks, polling, delivery). */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

/** Hands everything on to `inner`; a layer overrides `received` (messages coming in), `closed` or `send`. */
export abstract class TransportWrapper implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.closed();
    this.inner.onerror = (err) => this.onerror?.(err);
    this.inner.onmessage = (message, extra) => this.received(message, extra);
    await this.inner.start();
  }

  /** A message from the other side; handed on as it is unless a layer does otherwise. */
  protected received(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** The inner transport closed. */
  protected closed(): void {
    this.onclose?.();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
