/**
 * The hooks installed and Spillway's MCP server not (a user who skipped that step of `spillway
 * connect claude-code`, or whose server failed to start): the model has no rescuer_fetch, so a
 * handle would leave it with a preview it cannot read further, and a stub with nothing. The real
 * CLI's large outputs reach the model as Claude Code gives them, secrets masked, and the calls are
 * recorded with why they were not rescued.
 */
import type { Engine } from "../../../core/engine/engine";
import { smallSecrets } from "../../fixtures/secrets/smallSecrets";
import { CLAUDE_VERSION } from "../support/claudeCli";
import { hostRunThenStore, type HostRun } from "./harness";
import type { Step } from "./policy";
import { seqOutput } from "./projectFiles";

const { values } = smallSecrets(11);
const AWS_KEY = values[12]!;
// 13,893 chars: over the rescue threshold (12,000), under Claude Code's own 30,000-char cut.
const MEDIUM = `seq 1 3000; echo "AWS_ACCESS_KEY_ID=${AWS_KEY}"`;
const steps = (): Step[] => [
  () => ({ tool: "Bash", input: { command: "seq 1 40000", description: "A long output" } }),
  () => ({ tool: "Bash", input: { command: MEDIUM, description: "Numbers and a key" } }),
  () => ({ tool: "Bash", input: { command: MEDIUM, description: "The same again" } }),
];

describe(`Claude Code ${CLAUDE_VERSION} with Spillway's hooks and no Spillway MCP server`, () => {
  let r: HostRun;
  let engine: Engine;
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    ({ r, engine, close } = await hostRunThenStore({ transport: "hooks", steps }));
  }, 180_000);
  afterAll(() => close());

  it("the model has no Spillway tools", () => {
    const first = r.requests.find((q) => (q.body.tools ?? []).some((t) => t.name === "Bash"))!;
    expect(first.body.tools!.map((t) => t.name).filter((n) => /rescuer_fetch|recall_result/.test(n))).toEqual([]);
  });

  it("a 228,894-char output gets Claude Code's own preview and file, not a Spillway handle", () => {
    const long = r.seen[0]!;
    expect(long.text).toContain("<persisted-output>");
    expect(long.text).not.toMatch(/rescuer_fetch|PREVIEW, NOT the full output/);
  });

  it("an output over the rescue threshold arrives whole with its secret masked, and so does its repeat", () => {
    const [, medium, again] = r.seen;
    expect(medium!.text).toContain(seqOutput(3000).trimEnd());
    expect(medium!.text).toContain("AWS_ACCESS_KEY_ID=[masked:");
    expect(medium!.text).not.toContain(AWS_KEY);
    expect(again!.text).toBe(medium!.text);
    // The command the model wrote holds the key; no result it got back does.
    for (const seen of r.seen) expect(seen.text).not.toContain(AWS_KEY);
  });

  it("the calls are recorded as delivered whole, with the reason, and stored for the audit", () => {
    const [session] = engine.reader
      .listSessions({ offset: 0, limit: 10, sort: { by: "createdAt", dir: "asc" } })
      .rows.filter((s) => s.client === "claude-code");
    const bash = engine.reader.timeline(session!.id, 0, 50).calls.filter((c) => c.tool === "Bash");
    expect(bash.map((c) => c.outcome)).toEqual(["passthrough", "passthrough", "passthrough"]);
    expect(bash.map((c) => c.reason)).toEqual(["no_spillway_tools", "no_spillway_tools", "no_spillway_tools"]);
    expect(bash[1]!.blob?.chars).toBe(seqOutput(3000).length + `AWS_ACCESS_KEY_ID=${AWS_KEY}`.length);
  });
});
