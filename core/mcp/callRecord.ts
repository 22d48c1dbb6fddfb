/**
 * The record of one `tools/call` as the proxy handled it: how long it took (and how much of that
 * the upstream), its JSON-RPC on both sides, the images it returned, the `spill:` expansions made
 * for it, and, when it produced no result, the sentence the model got instead. The engine masks
 * and keeps it; nothing here can fail the call.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mediaOf } from "../engine/callLedger";
import type { Engine } from "../engine/engineApi";

/** The client's request as it arrived (re-serialized): what the inspector shows as "JSON-RPC request". */
export interface RpcRequest {
  method: string;
  params: { name: string; arguments?: Record<string, unknown> | undefined; [k: string]: unknown };
}

export class CallRecord {
  private readonly startedAt: number;
  private upstreamMs: number | null = null;
  private upstreamRequest: unknown = undefined;
  private expansionIds: readonly number[] = [];
  private readonly request: unknown;

  constructor(
    private readonly engine: Engine,
    private readonly sessionId: string,
    req: RpcRequest,
    private readonly requestId: string | number,
    /** performance.now() when the request arrived. */
    private readonly t0 = performance.now(),
  ) {
    this.request = { jsonrpc: "2.0", id: requestId, method: req.method, params: req.params };
    this.startedAt = engine.clock.now() - (performance.now() - t0);
  }

  private elapsed(): number {
    return performance.now() - this.t0;
  }

  private response(result: CallToolResult): unknown {
    return { jsonrpc: "2.0", id: this.requestId, result };
  }

  /** The expansion events made for this call's arguments. */
  expanded(eventIds: readonly number[]): void {
    this.expansionIds = eventIds;
  }

  /** Runs the upstream request, timing it and keeping what was sent (with the arguments expanded). */
  async upstream<T>(name: string, args: unknown, run: () => Promise<T>): Promise<T> {
    this.upstreamRequest = { jsonrpc: "2.0", method: "tools/call", params: { name, arguments: args } };
    const t = performance.now();
    try {
      return await run();
    } finally {
      this.upstreamMs = performance.now() - t;
    }
  }

  /** An own tool's answer (rescuer_fetch, recall_result): its read event gets the timing and JSON-RPC. */
  own(result: CallToolResult, eventId: number | undefined): CallToolResult {
    if (eventId !== undefined)
      this.engine.noteRead(eventId, { durationMs: this.elapsed(), rpc: { request: this.request, response: this.response(result) } });
    return result;
  }

  /** A call that produced no result: recorded as failed, with the sentence the model gets. */
  failed(call: { tool: string; server: string | null; args: unknown }, result: CallToolResult, message: string): CallToolResult {
    const callId = this.engine.recordFailedCall({
      sessionId: this.sessionId,
      ...call,
      message,
      startedAt: this.startedAt,
      durationMs: this.elapsed(),
      upstreamMs: this.upstreamMs,
    });
    if (callId !== null) {
      this.engine.noteCall(callId, {
        rpc: { request: this.request, response: this.response(result), upstreamRequest: this.upstreamRequest },
        expansionEventIds: this.expansionIds,
      });
    }
    return result;
  }

  /** A delivered result: its call (and the structuredContent part, if stored apart) completed. */
  delivered(delivered: CallToolResult, raw: CallToolResult, ids: { main: number | null; structured: number | null }): CallToolResult {
    if (ids.main !== null) {
      this.engine.noteCall(ids.main, {
        startedAt: this.startedAt,
        durationMs: this.elapsed(),
        upstreamMs: this.upstreamMs,
        rpc: {
          request: this.request,
          response: this.response(delivered),
          upstreamRequest: this.upstreamRequest,
          upstreamResponse: { jsonrpc: "2.0", result: raw },
        },
        media: mediaOf(raw.content),
        expansionEventIds: this.expansionIds,
      });
      if (ids.structured !== null) this.engine.noteCall(ids.structured, { partOf: ids.main });
    }
    return delivered;
  }
}
