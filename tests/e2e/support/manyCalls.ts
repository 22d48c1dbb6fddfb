/**
 * One session of 2,000 calls written through the real engine (interception, a rescue, a refused
 * read, failed calls), for filtering the call table over more calls than one page loads (200).
 */
import type { Engine } from "../../../core/engine/engineApi";

export const MANY_CALLS = 2_000;
export const MANY_CALLS_SESSION = "2000ca11-5e55-4a11-9c0d-000000002000";
/** The tool called only twice: at call 7 (first page) and call 1,950 (tenth page). */
export const RARE_TOOL = "deploy_release";
const TOOLS = ["get_file_info", "list_directory", "read_text_file", "search_files"];
/** Calls 249, 499, … 1,999: the upstream timed out (8 of them). */
export const TIMED_OUT = Array.from({ length: MANY_CALLS / 250 }, (_, k) => 250 * k + 249);
/** The one rescued result; a later read of it is refused. */
export const RESCUED_AT = 1_990;

export function generateManyCalls(engine: Engine): void {
  const s = MANY_CALLS_SESSION;
  engine.touchSession(s, "e2e-long-agent 1.0");
  for (let i = 0; i < MANY_CALLS; i++) {
    if (i === 7 || i === 1_950) {
      engine.transformToolResult({ sessionId: s, tool: RARE_TOOL, server: "ci", args: { target: `prod-${i}` }, text: "deployed" });
    } else if (TIMED_OUT.includes(i)) {
      engine.recordFailedCall({
        sessionId: s,
        tool: "run_tests",
        server: "ci",
        args: { suite: `suite-${i}` },
        message: `The upstream server ci timed out after 120 s running run_tests (call ${i}).`,
      });
    } else if (i === RESCUED_AT) {
      const text = Array.from({ length: 800 }, (_, k) => `line ${k}: GET /api/orders/${k} 200 in ${k % 90} ms`).join("\n");
      const r = engine.transformToolResult({
        sessionId: s,
        tool: "read_text_file",
        server: "files",
        args: { path: "/srv/access.log" },
        text,
      });
      engine.fetch({ sessionId: s, id: r.blobId, mode: "grep", args: { pattern: "in 8[0-9] ms" } });
      engine.fetch({ sessionId: s, id: r.blobId, mode: "sideways" });
    } else {
      const tool = TOOLS[i % TOOLS.length]!;
      engine.transformToolResult({ sessionId: s, tool, server: "files", args: { path: `/srv/data/f${i}` }, text: `result of call ${i}` });
    }
  }
}
