/**
 * The policy every Claude Code run follows: read a large MCP result, look for a line in it, run a
 * 200 KB Bash command, Read a 96 KB log and call a large tool of an MCP server Spillway does not
 * proxy (all three through the hooks), fetch the Bash output through
 * MCP, read a 7 KB result twice and recall it, and hand both large results to other tools. Where
 * Spillway gives the model no id (the run without it), the id-based steps are skipped and the model
 * passes the text it has inline.
 */
import { createHash } from "node:crypto";
import { handleId, stubId, type Step } from "./policy";

export const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/** What the fixture upstream's big_log tool returns (tests/mcp/fixtures/fixtureServer.ts), computed independently. */
export function bigLog(lines: number, seed: string): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(
      i % 97 === 13
        ? `[${seed}] ERROR step ${i}: test suite ${i} failed with exit code 2`
        : `[${seed}] step ${i}: compiled src/module${i}.ts in ${i % 50} ms`,
    );
  return out.join("\n") + "\n";
}

export const BIG = { lines: 2_000, seed: "e2e" };
export const DIRECT = { lines: 2_000, seed: "direct" };
/** Over dedup.minChars, under the rescue threshold: delivered in full, then stubbed. */
export const MID = { lines: 140, seed: "mid" };
export const BASH_LINES = 40_000;

/**
 * `upstream`: the server name the fixture's tools carry (`spillway` when proxied, else its own);
 * `logFile`: the 96 KB log to Read.
 */
export function claudeSteps(upstream: string, logFile: string): Step[] {
  const big = { tool: `mcp__${upstream}__big_log`, input: { ...BIG } };
  const mid = { tool: `mcp__${upstream}__big_log`, input: { ...MID } };
  return [
    () => big,
    (seen) => {
      const id = handleId(seen[0]!.text);
      return id ? { tool: "mcp__spillway__rescuer_fetch", input: { id, mode: "grep", pattern: "ERROR step 1274:" } } : null;
    },
    () => ({ tool: "Bash", input: { command: `seq 1 ${BASH_LINES}`, description: "Print 40,000 numbers" } }),
    () => ({ tool: "Read", input: { file_path: logFile } }),
    // An MCP server Spillway does not proxy: its result is rewritten by PostToolUse (updatedMCPToolOutput).
    () => ({ tool: "mcp__direct__big_log", input: { ...DIRECT } }),
    (seen) => {
      const id = handleId(seen.find((s) => s.tool === "Bash")!.text);
      return id ? { tool: "mcp__spillway__rescuer_fetch", input: { id, mode: "grep", pattern: "^39999$" } } : null;
    },
    () => mid,
    () => mid,
    (seen) => {
      const id = stubId(seen[seen.length - 1]!.text);
      return id ? { tool: "mcp__spillway__recall_result", input: { result_id: id } } : null;
    },
    (seen) => {
      const id = handleId(seen[0]!.text);
      return id
        ? { tool: "mcp__spillway__digest", input: { text: `spill:${id}` } }
        : { tool: `mcp__${upstream}__digest`, input: { text: seen[0]!.text } };
    },
    (seen) => {
      // A tool Spillway does not proxy: the token is expanded by the PreToolUse hook.
      const id = handleId(seen.find((s) => s.tool === "Bash")!.text);
      return id ? { tool: "mcp__direct__digest", input: { text: `spill:${id}` } } : null;
    },
  ];
}
