/**
 * The real Claude Code CLI, headless, against the scripted model, with Spillway configured exactly
 * as `spillway connect claude-code` prints it: MCP over stdio, then over HTTP, and the HTTP hooks.
 * Every assertion is on what the model was actually sent. Then the same policy without Spillway,
 * and the prompt sizes of both runs side by side.
 */
import { serviceLog } from "./projectFiles";
import { CLAUDE_VERSION } from "../support/claudeCli";
import { hostRun, type HostRun } from "./harness";
import { handleId, stubId, type Observed } from "./policy";
import { promptStats, statsTable } from "./promptStats";
import { BASH_LINES, BIG, DIRECT, MID, bigLog, claudeSteps, sha } from "./steps";
import { seqOutput } from "./projectFiles";

const runs: Partial<Record<"stdio" | "http" | "none", HostRun>> = {};
const fmt = (n: number) => n.toLocaleString("en-US");
const digestOf = (s: string) => `length=${s.length} sha256=${sha(s)}`;
const mainRequests = (r: HostRun) => r.requests.filter((q) => (q.body.tools ?? []).some((t) => t.name === "Bash"));

function find(r: HostRun, tool: string, match: (o: Observed) => boolean = () => true): Observed[] {
  return r.seen.filter((o) => o.tool === tool && match(o));
}

/** The first 2,000 chars (what a host keeps of a clipped result) name the header, PREVIEW, id and fetch call. */
function expectHandleHead(text: string, id: string): void {
  const head = text.slice(0, 2_000);
  expect(head).toContain(`stored as ${id}`);
  expect(head).toContain("This is a PREVIEW, NOT the full output");
  expect(head).toContain(`rescuer_fetch(id="${id}", mode=`);
}

for (const transport of ["stdio", "http"] as const) {
  describe(`Claude Code ${CLAUDE_VERSION} with Spillway's MCP over ${transport} and its hooks, as connect prints them`, () => {
    let r: HostRun;
    beforeAll(async () => {
      r = runs[transport] = await hostRun({ transport, steps: claudeSteps });
      expect(r.claude.code, r.claude.stderr).toBe(0);
    }, 180_000);
    afterAll(() => r?.close());

    it("Claude Code reads the printed config, and Spillway's tools are on its first request", () => {
      expect(r.mcpGet).toMatch(/Status: ✔ Connected/);
      expect(r.mcpGet).toMatch(new RegExp(`Type: ${transport}`));
      expect(r.claude.init?.mcp_servers).toContainEqual({ name: "spillway", status: "connected" });
      const first = (mainRequests(r)[0]!.body.tools ?? []).map((t) => t.name);
      for (const t of ["rescuer_fetch", "recall_result", "big_log", "digest"]) expect(first).toContain(`mcp__spillway__${t}`);
      // No answer of a hook was turned down by Claude Code's output-shape check.
      expect(JSON.stringify(r.claude.events)).not.toMatch(/does not match|hook_error/);
    });

    it("a large MCP result arrives as a handle, and a fetch answers from the whole result", () => {
      const [big] = find(r, "mcp__spillway__big_log", (o) => o.input.lines === BIG.lines);
      const id = handleId(big!.text)!;
      expect(big!.text).toMatch(new RegExp(`stored as ${id} — ${fmt(bigLog(BIG.lines, BIG.seed).length)} chars, 2,000 lines`));
      expect(big!.text.length).toBeLessThan(12_000);
      expectHandleHead(big!.text, id);
      const [grep] = find(r, "mcp__spillway__rescuer_fetch", (o) => o.input.id === id);
      expect(grep!.text).toContain("L1274: [e2e] ERROR step 1274: test suite 1274 failed with exit code 2");
    });

    it("Bash's 228,894-char output is rewritten by PostToolUse, stored whole (not Claude Code's 30,000-char head), and fetched through MCP in the same session", () => {
      const [bash] = find(r, "Bash");
      const id = handleId(bash!.text)!;
      expect(bash!.text).toMatch(
        new RegExp(`^\\[spillway: output of Bash stored as ${id} — ${fmt(seqOutput(BASH_LINES).length)} chars, 40,000 lines`),
      );
      expect(bash!.text).not.toContain("<persisted-output>");
      expectHandleHead(bash!.text, id);
      const [fetched] = find(r, "mcp__spillway__rescuer_fetch", (o) => o.input.id === id);
      expect(fetched!.isError).toBe(false);
      expect(fetched!.text).toContain("L39998: 39999");
    });

    it("Read is rewritten by PostToolUse (Claude Code numbers the handle's lines as it does a file's)", () => {
      const [read] = find(r, "Read");
      const id = handleId(read!.text)!;
      expect(read!.text).toMatch(
        new RegExp(`^1\\t\\[spillway: output of Read stored as ${id} — ${fmt(serviceLog().length)} chars, 1,500 lines, log\\]`),
      );
      expectHandleHead(read!.text, id);
    });

    it("an MCP server Spillway does not proxy: the result Claude Code saved (over its token limit) is stored whole and rewritten by PostToolUse", () => {
      const [direct] = find(r, "mcp__direct__big_log");
      const id = handleId(direct!.text)!;
      expect(direct!.text).toMatch(
        new RegExp(
          `^\\[spillway: output of mcp__direct__big_log stored as ${id} — ${fmt(bigLog(DIRECT.lines, DIRECT.seed).length)} chars, 2,000 lines`,
        ),
      );
      expect(direct!.text).not.toMatch(/exceeds maximum allowed tokens/);
    });

    it("a repeat becomes a stub, and recall_result brings back the exact text", () => {
      const [full, again] = find(r, "mcp__spillway__big_log", (o) => o.input.lines === MID.lines);
      const mid = bigLog(MID.lines, MID.seed);
      expect(full!.text).toBe(mid);
      const id = stubId(again!.text)!;
      expect(again!.text).toMatch(/^\[spillway: big_log returned the same 6,910 chars as an earlier call/);
      const [recalled] = find(r, "mcp__spillway__recall_result");
      expect(recalled!.input.result_id).toBe(id);
      expect(recalled!.text).toBe(mid);
    });

    it("spill: delivers the whole stored result, through the proxy and through PreToolUse into a server Spillway does not proxy", () => {
      const [viaProxy] = find(r, "mcp__spillway__digest");
      expect(viaProxy!.text).toBe(digestOf(bigLog(BIG.lines, BIG.seed)));
      const [viaHook] = find(r, "mcp__direct__digest");
      expect(viaHook!.text).toBe(digestOf(seqOutput(BASH_LINES)));
    });
  });
}

describe(`Claude Code ${CLAUDE_VERSION}: the same policy without Spillway`, () => {
  let r: HostRun;
  beforeAll(async () => {
    r = runs.none = await hostRun({ transport: "none", steps: claudeSteps });
    expect(r.claude.code, r.claude.stderr).toBe(0);
  }, 180_000);
  afterAll(() => r?.close());

  it("prints prompt chars and o200k tokens per request with and without Spillway; Spillway's run sends fewer", () => {
    const withS = mainRequests(runs.stdio!).map(promptStats);
    const without = mainRequests(r).map(promptStats);
    console.log(
      `Claude Code ${CLAUDE_VERSION}, the scripted policy with Spillway (MCP over stdio + hooks) and without:\n${statsTable(withS, without)}`,
    );
    // Without Spillway the model got the 96 KB log in full and had to paste the big result into digest itself.
    const [read] = r.seen.filter((o) => o.tool === "Read");
    expect(read!.text.length).toBeGreaterThan(serviceLog().length);
    const total = (xs: typeof withS) => xs.reduce((a, x) => a + x.conversationTokens, 0);
    expect(total(withS)).toBeLessThan(total(without));
    expect(withS.at(-1)!.conversationTokens).toBeLessThan(without.at(-1)!.conversationTokens);
  });
});
