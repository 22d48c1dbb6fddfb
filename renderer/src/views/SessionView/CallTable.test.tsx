import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CallSummary, LedgerEvent } from "../../../../core/inspector/api/contract";
import { CallRows, entriesOf } from "./CallTable";
import { markText, readText, reasonText } from "./callText";
import { ESTIMATE_NOTE } from "../../../../core/vocabulary";

const call = (id: number, seq: number, over: Partial<CallSummary> = {}): CallSummary => ({
  id,
  seq,
  reason: null,
  sessionId: "s",
  ts: 1_000 + id * 100,
  startedAt: 1_000 + id * 100 - 40,
  durationMs: 40,
  upstreamMs: 30,
  tool: "read_text_file",
  server: "files",
  outcome: "rescued",
  blobId: "0123456789ab",
  isError: false,
  returnedChars: 13_128,
  returnedTokens: 5_001,
  givenChars: 1_516,
  givenTokens: 600,
  tokensEstimated: false,
  partOf: null,
  argsPreview: '{"path":"/tmp/a.log"}',
  errorText: null,
  parts: 0,
  blob: null,
  reads: { count: 2, chars: 800, tokens: 200, refused: 0 },
  received: { expanded: 0, denied: 0, chars: 0, tokens: 0 },
  media: [],
  ...over,
});
const ev = (id: number, type: LedgerEvent["type"], data: Record<string, unknown>, over: Partial<LedgerEvent> = {}): LedgerEvent => ({
  id,
  ts: 0,
  type,
  sessionId: "s",
  blobId: null,
  callId: null,
  tool: null,
  server: null,
  chars: 0,
  tokens: null,
  data,
  durationMs: null,
  ...over,
});

describe("the call table", () => {
  it("lists calls and session marks in the order they happened", () => {
    const e = entriesOf(
      [call(1, 10), call(2, 30)],
      [ev(20, "turn", { turn: 2, prompt: "now fix it" }), ev(5, "compaction", { generation: 1 })],
    );
    expect(e.map((x) => (x.kind === "call" ? `call ${x.call.id}` : x.mark.type))).toEqual(["compaction", "call 1", "turn", "call 2"]);
  });

  it("shows a row's outcome, sizes, reads, reference and duration, without any text of the result", () => {
    const html = renderToStaticMarkup(
      <table>
        <tbody>
          <CallRows
            calls={[
              call(1, 1),
              call(2, 2, {
                outcome: "error",
                isError: true,
                errorText: "The upstream server fx stopped while running crash",
                server: "fx",
                tool: "crash",
                reads: { count: 0, chars: 0, tokens: 0, refused: 0 },
              }),
              call(3, 3, { outcome: "passthrough", tool: "digest", received: { expanded: 1, denied: 1, chars: 13_128, tokens: 5_001 } }),
            ]}
            marks={[]}
            open={new Set()}
            onToggle={() => {}}
          />
        </tbody>
      </table>,
    );
    expect(html.match(/data-testid="call-row"/g)).toHaveLength(3);
    expect(html).toContain("13.1 k → 1,516");
    expect(html).toContain("40 ms");
    expect(html).toContain('data-outcome="error"');
    expect(html).toContain("The upstream server fx stopped while running crash");
    expect(html).toContain("↳ 13.1 k in · 1 denied");
    expect(html).not.toContain("call-detail");
  });

  it("marks a call's token counts as estimated when they were sampled, and only then", () => {
    const row = (c: CallSummary) =>
      renderToStaticMarkup(
        <table>
          <tbody>
            <CallRows calls={[c]} marks={[]} open={new Set()} onToggle={() => {}} />
          </tbody>
        </table>,
      );
    const sampled = row(call(1, 1, { returnedTokens: 2_400_000, tokensEstimated: true }));
    expect(sampled).toContain(`≈2,400,000 → ≈600 tokens (${ESTIMATE_NOTE})`);
    const counted = row(call(1, 1));
    expect(counted).toContain("5,001 → 600 tokens");
    expect(counted).not.toContain("≈");
  });

  it("says in words what each read, expansion and mark was", () => {
    expect(readText(ev(1, "fetch", { mode: "grep", args: { pattern: "ERROR" }, truncated: false }, { chars: 812 }))).toBe(
      'rescuer_fetch grep {"pattern":"ERROR"} → 812 chars',
    );
    expect(readText(ev(1, "fetch", { mode: "stat", args: {}, error: true }))).toBe("rescuer_fetch stat → refused");
    expect(readText(ev(1, "recall", { refused: false }, { chars: 900 }))).toBe("recall_result → 900 chars");
    expect(
      readText(
        ev(
          1,
          "expansion",
          { outcome: "denied", reason: "run_shell is an exec sink", destination: "run_shell" },
          { blobId: "0123456789ab" },
        ),
      ),
    ).toBe("spill:0123456789ab denied for run_shell: run_shell is an exec sink");
    expect(markText(ev(1, "turn", { turn: 3, prompt: "deploy it" }))).toBe("Turn 3: “deploy it”");
    expect(markText(ev(1, "compaction", { generation: 2 }))).toMatch(/^Context compacted \(generation 2\)/);
  });

  it("says why a result was delivered whole or given its handle again, by the reason Spillway recorded", () => {
    expect(reasonText("no_spillway_tools", "passthrough")).toMatch(/^Delivered whole: no Spillway MCP server served this session/);
    expect(reasonText("new_generation", "rescued")).toMatch(/^Its handle was given again, not a stub: the agent compacted/);
    expect(reasonText("streak_guard", "passthrough")).toMatch(/^Delivered in full again, not as a stub: .*maxStubStreak/);
    expect(reasonText("stored copy was damaged", "rescued")).toBe("Stored afresh: the stored copy was damaged.");
  });
});
