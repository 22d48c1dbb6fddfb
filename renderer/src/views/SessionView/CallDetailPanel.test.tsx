import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CallDetail, ReadEvent } from "../../../../core/inspector/api/contract";
import { CallBody } from "./CallDetailPanel";

const DAY = 86_400_000;
const TS = Date.UTC(2026, 0, 1);

const read = (over: Partial<ReadEvent> = {}): ReadEvent => ({
  id: 9,
  ts: TS + 60_000,
  type: "fetch",
  sessionId: "s",
  blobId: "0123456789ab",
  callId: null,
  tool: "read_log",
  server: null,
  chars: 812,
  tokens: 200,
  data: { mode: "grep", args: { pattern: "ERROR" } },
  durationMs: 2,
  answer: null,
  detailRemovedAt: null,
  ...over,
});

/** A rescued call as the store answers it once its old detail was removed (31 days on). */
const pruned = (over: Partial<CallDetail> = {}): CallDetail => ({
  call: {
    id: 1,
    seq: 1,
    reason: null,
    sessionId: "s",
    ts: TS,
    startedAt: TS - 12,
    durationMs: 12,
    upstreamMs: 9,
    tool: "read_log",
    server: "files",
    outcome: "rescued",
    blobId: "0123456789ab",
    isError: false,
    returnedChars: 31_200,
    returnedTokens: 9_000,
    givenChars: 2_410,
    givenTokens: 700,
    tokensEstimated: false,
    partOf: null,
    argsPreview: '{"path":"/var/log/app.log"}',
    errorText: null,
    parts: 0,
    blob: null,
    reads: { count: 1, chars: 812, tokens: 200, refused: 0 },
    received: { expanded: 0, denied: 0, chars: 0, tokens: 0 },
    media: [],
    argsJson: '{"path":"/var/log/app.log"}',
  },
  raw: { text: "", totalChars: 31_200, truncated: true, source: "pruned" },
  given: { text: "", totalChars: 2_410, truncated: true, source: "pruned" },
  parts: [],
  reads: [read({ detailRemovedAt: TS + 31 * DAY })],
  received: [],
  media: [],
  rpc: null,
  detailRemovedAt: TS + 31 * DAY,
  ...over,
});

describe("a call opened after its old detail was removed", () => {
  it("says what went and when, in place of each text, the raw record and each read's answer", () => {
    const html = renderToStaticMarkup(<CallBody d={pruned()} />);
    expect(html).toContain('data-testid="detail-removed"');
    expect(html).toMatch(/31 days after the call, with the rest of its old detail \(store\.detailTtlDays\)/);
    expect(html).toContain("Removed with the call&#x27;s old detail (31,200 chars; store.detailTtlDays).");
    expect(html).toContain("Removed with the call&#x27;s old detail (2,410 chars; store.detailTtlDays).");
    expect(html).toMatch(/<h3>Raw record<\/h3><p[^>]*data-testid="rpc-removed"[^>]*>Removed on .*31 days after the call/);
    expect(html).toMatch(/data-testid="answer-removed"[^>]*>Removed on .*30 days after the read/);
    expect(html).not.toContain("Not kept");
    expect(html).toContain("/var/log/app.log");
  });

  it("shows a call whose detail is kept as before: no note", () => {
    const kept = pruned({
      raw: { text: "step 0: compiled", totalChars: 31_200, truncated: true, source: "blob" },
      given: { text: "[spillway: read_log returned 31,200 chars]", totalChars: 2_410, truncated: false, source: "ledger" },
      reads: [read({ answer: { text: "L13: ERROR", totalChars: 10, truncated: false, source: "ledger" } })],
      rpc: { kind: "jsonrpc", request: '{"method":"tools/call"}', response: "{}", upstreamRequest: null, upstreamResponse: null },
      detailRemovedAt: null,
    });
    const html = renderToStaticMarkup(<CallBody d={kept} />);
    expect(html).not.toMatch(/Removed/);
    expect(html).toContain("L13: ERROR");
    expect(html).toContain('data-testid="rpc"');
  });
});
