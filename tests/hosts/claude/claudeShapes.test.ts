/**
 * Claude Code checks every PostToolUse replacement against the tool's own output schema and keeps
 * the original output when it does not match. With the rescue threshold at its minimum (200 chars),
 * each built-in tool's output here is rescued, so the model receiving a handle for each proves that
 * Claude Code 2.1.197 accepted Spillway's answer in that tool's shape.
 */
import type { Reply } from "../support/anthropicModel";
import { CLAUDE_VERSION } from "../support/claudeCli";
import { tempHome } from "../../helpers/tempHome";
import { hostRun, type HostRun } from "./harness";
import { handleId, type Step } from "./policy";
import { startTlsPage } from "./tlsPage";

const SUMMARY = "The scheduler no longer crashes when a job is cancelled twice. ".repeat(20);
const REPORT = "Subagent report: every worker handled its share of requests. ".repeat(20);
const search: Reply = {
  blocks: [
    { type: "server_tool_use", id: "srvtoolu_shapes01", name: "web_search", input: { query: "scheduler release notes" } },
    {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_shapes01",
      content: Array.from({ length: 8 }, (_, i) => ({
        type: "web_search_result",
        title: `Scheduler release notes, part ${i}`,
        url: `https://example.com/notes/${i}`,
        encrypted_content: "ZW5j",
        page_age: null,
      })) as never,
    },
    { type: "text", text: "Eight pages about the scheduler." },
  ],
};

describe(`Claude Code ${CLAUDE_VERSION} accepts Spillway's PostToolUse answer in each built-in tool's shape`, () => {
  let r: HostRun;
  let page: Awaited<ReturnType<typeof startTlsPage>>;
  const certs = tempHome("spillway-tls-");
  beforeAll(async () => {
    page = await startTlsPage(
      certs.path,
      `<html><head><title>Notes</title></head><body><h1>Notes</h1>${"<p>Fixed the scheduler.</p>".repeat(60)}</body></html>`,
    );
    const steps = (_u: string, log: string): Step[] => {
      const project = log.slice(0, log.lastIndexOf("/"));
      return [
        () => ({ tool: "Grep", input: { pattern: "TODO", path: project, output_mode: "content", "-n": true } }),
        () => ({ tool: "Grep", input: { pattern: "TODO", path: project } }),
        () => ({ tool: "Grep", input: { pattern: "TODO", path: project, output_mode: "count" } }),
        () => ({ tool: "Glob", input: { pattern: "**/*.ts", path: project } }),
        () => ({ tool: "Read", input: { file_path: `${project}/analysis.ipynb` } }),
        () => (page ? { tool: "WebFetch", input: { url: page.url, prompt: "What changed?" } } : null),
        () => ({ tool: "WebSearch", input: { query: "scheduler release notes" } }),
        () => ({
          tool: "Agent",
          input: { description: "Summarise", prompt: "SUBAGENT: summarise the log", subagent_type: "general-purpose" },
        }),
      ];
    };
    r = await hostRun({
      transport: "stdio",
      steps,
      checkConfig: false,
      args: ["--allowedTools", "Grep", "Glob"], // Claude Code 2.1 offers them only when asked for
      settings: { skipWebFetchPreflight: true },
      env: { NODE_TLS_REJECT_UNAUTHORIZED: "0" },
      spillwayConfig: { rescue: { thresholdChars: 200 } },
      side: (req) => {
        const first = JSON.stringify(req.messages[0]?.content ?? "");
        if (first.includes("SUBAGENT:")) return { text: REPORT };
        if ((req.tools ?? []).some((t) => (t as { type?: string }).type?.startsWith("web_search"))) return search;
        if (first.includes("Web page content:")) return { text: SUMMARY };
        return null;
      },
    });
    expect(r.claude.code, r.claude.stderr).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await r?.close();
    page?.close();
    certs.cleanup();
  });

  const handled = (tool: string, n = 0) => {
    const o = r.seen.filter((s) => s.tool === tool)[n];
    expect(o, `${tool} was called`).toBeDefined();
    return { text: o!.text, id: handleId(o!.text) };
  };

  it("Grep in content, files and count modes", () => {
    for (const [n, mode] of ["content", "files_with_matches", "count"].entries()) {
      const { text, id } = handled("Grep", n);
      expect(id, `Grep ${mode}: ${text.slice(0, 200)}`).toMatch(/^[0-9a-f]{12}$/);
      expect(text).toContain(`rescuer_fetch(id="${id}"`);
    }
    // files_with_matches keeps Claude Code's own count line above the handle.
    expect(handled("Grep", 1).text).toMatch(/^Found 40 files\n\[spillway: output of Grep stored as/);
  });

  it("Glob, Read of a notebook, WebSearch and Agent", () => {
    expect(handled("Glob").text).toMatch(/^\[spillway: output of Glob stored as [0-9a-f]{12} — [\d,]+ chars, 40 lines/);
    expect(handled("Read").text).toMatch(
      /<cell id="spillway"><cell_type>markdown<\/cell_type>\[spillway: output of Read stored as [0-9a-f]{12}/,
    );
    const web = handled("WebSearch");
    expect(web.text).toMatch(/^Web search results for query: "scheduler release notes"\n\n\[spillway: output of WebSearch stored as/);
    const agent = handled("Agent");
    expect(agent.text).toMatch(
      new RegExp(`^\\[spillway: output of Agent stored as [0-9a-f]{12} — ${REPORT.length.toLocaleString("en-US")} chars`),
    );
    expect(agent.text).toMatch(/agentId: /); // Claude Code's own line after the subagent's text stays
  });

  it("WebFetch (served over TLS by a local page)", (ctx) => {
    if (!page) ctx.skip(); // needs openssl for the page's certificate
    expect(handled("WebFetch").text).toMatch(
      new RegExp(`^\\[spillway: output of WebFetch stored as [0-9a-f]{12} — ${SUMMARY.length.toLocaleString("en-US")} chars`),
    );
  });

  it("no replacement was turned down by Claude Code's output-shape check", () => {
    expect(JSON.stringify(r.claude.events)).not.toMatch(/does not match|hook_error/);
  });
});
