import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TimelineCall } from "../../../../core/inspector/api/contract";
import { CallCard, touchText } from "./CallCard";

const call = (outcome: TimelineCall["call"]["outcome"]): TimelineCall => ({
  call: {
    id: 7, sessionId: "s", ts: 0, tool: "read_text_file", server: "files", outcome, blobId: "0123456789ab", isError: false,
    returnedChars: 13_128, returnedTokens: 5_001, givenChars: 8_879, givenTokens: 3_248, argsJson: '{"path":"/tmp/a.log"}',
  },
  raw: { text: "2024-05-14 INFO start <script>x</script>", totalChars: 13_128, truncated: true, source: "blob" },
  given: { text: "[spillway: output of read_text_file stored as 0123456789ab]", totalChars: 8_879, truncated: false, source: "ledger" },
  blob: { id: "0123456789ab", kind: "log", label: "public", state: "live", chars: 13_128 },
  touches: [{ id: 1, ts: 0, type: "fetch", sessionId: "s", blobId: "0123456789ab", callId: null, tool: "read_text_file", server: null, chars: 812, tokens: 200, data: { mode: "grep", args: { pattern: "ERROR" }, truncated: false } }],
});

describe("CallCard", () => {
  it("puts what the tool returned beside what the model was given, then what read it back", () => {
    const html = renderToStaticMarkup(<CallCard tc={call("rescued")} />);
    expect(html).toContain("Tool returned");
    expect(html).toContain("Model was given (handle)");
    expect(html).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(html).toContain("13,128 → 8,879 chars · 5,001 → 3,248 tokens");
    expect(html).toContain("open the whole blob");
    expect(html).toContain("rescuer_fetch grep {&quot;pattern&quot;:&quot;ERROR&quot;} → 812 chars");
  });

  it("shows one box when the model got the result itself", () => {
    const c = call("passthrough");
    const html = renderToStaticMarkup(<CallCard tc={{ ...c, call: { ...c.call, givenChars: c.call.returnedChars }, given: c.raw }} />);
    expect(html).toContain("Tool returned = model was given");
    expect(html).not.toContain("Model was given (handle)");
  });

  it("an imported call the agent cut shows the whole result beside the agent's preview", () => {
    const c = call("passthrough");
    const html = renderToStaticMarkup(<CallCard tc={{ ...c, given: { text: "<persisted-output>\nOutput too large (12.8KB).", totalChars: 2_048, truncated: false, source: "ledger" }, call: { ...c.call, givenChars: 2_048 } }} />);
    expect(html).toContain("Model was given (cut by the agent)");
    expect(html).toContain("&lt;persisted-output&gt;");
  });

  it("describes expansions and recalls in words", () => {
    const e = { id: 2, ts: 0, sessionId: "s", blobId: "0123456789ab", callId: null, tool: "create_entities", server: null, chars: 0, tokens: null };
    expect(touchText({ ...e, type: "expansion", data: { outcome: "denied", reason: "a write sink" } })).toBe("spill:0123456789ab denied into create_entities (a write sink)");
    expect(touchText({ ...e, type: "recall", chars: 900, data: { refused: false } })).toBe("recall_result → 900 chars");
  });
});
