import { describe, expect, it } from "vitest";
import { labelResult } from "../../sensitivity/labels";
import type { LedgerEvent } from "../../store/read/readModel";
import { classifyReason, labelOrigin } from "./labelOrigin";

const SECRET = "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEYq3";
const IBAN = "Pay to GB82 WEST 1234 5698 7654 32 by Friday";

function labelEvent(id: number, data: Record<string, unknown>): LedgerEvent {
  return {
    id,
    ts: id * 1000,
    type: "label",
    sessionId: "s",
    blobId: "b",
    callId: null,
    tool: "t",
    server: null,
    chars: 0,
    tokens: null,
    data,
    durationMs: null,
  };
}

describe("why a blob carries its label", () => {
  it("reads every source labelResult words", () => {
    const byArgs = labelResult({ tool: "q", args: { password: "hunter2-correct-horse" }, content: "rows: 3", toolLabels: {} });
    expect(byArgs.label).toBe("credential");
    expect(byArgs.reasons.map(classifyReason)).toEqual([{ source: "arguments", label: "credential" }]);
    const byContent = labelResult({ tool: "q", args: {}, content: SECRET, toolLabels: {} });
    expect(byContent.reasons.map(classifyReason)).toEqual([{ source: "content", label: "credential" }]);
    const personal = labelResult({ tool: "q", args: {}, content: IBAN, toolLabels: {} });
    expect(personal.label).toBe("personal");
    expect(personal.reasons.map(classifyReason)).toEqual([{ source: "content", label: "personal" }]);
    const byTool = labelResult({ tool: "hr_lookup", args: {}, content: "ok", toolLabels: { "hr_*": "internal" } });
    expect(byTool.reasons.map(classifyReason)).toEqual([{ source: "tool", label: "internal" }]);
  });

  it("names the arguments, not the content, when only the arguments held a secret", () => {
    const r = labelResult({ tool: "q", args: { password: "hunter2-correct-horse" }, content: IBAN, toolLabels: {} });
    const o = labelOrigin("credential", [labelEvent(1, { to: "credential", reasons: r.reasons })]);
    // The personal data in the content did not make it a credential: it is left out.
    expect(o).toEqual({ label: "credential", sources: ["arguments"], reasons: [r.reasons[0]], at: 1000 });
    expect(o!.reasons[0]).toMatch(/^arguments hold /);
  });

  it("takes the latest event that set the current label", () => {
    const events = [
      labelEvent(1, { to: "personal", reasons: ["content holds personal data: 3 e-mail addresses"] }),
      { ...labelEvent(2, {}), type: "fetch" as const },
      labelEvent(3, { from: "personal", to: "credential", reasons: ["arguments hold password assignment"] }),
    ];
    expect(labelOrigin("credential", events)).toMatchObject({ sources: ["arguments"], at: 3000 });
    expect(labelOrigin("personal", events)).toMatchObject({ sources: ["content"], at: 1000 });
    expect(labelOrigin("internal", events)).toBeNull();
    expect(labelOrigin("public", events)).toBeNull();
  });
});
