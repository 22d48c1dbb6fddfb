/**
 * The official MCP conformance suite (server mode) against an upstream written from its scenarios,
 * alone and behind `spillway serve` (the endpoint's code, in process, reached through a loopback
 * proxy that adds the bearer token): Spillway passes every scenario its upstream passes, except
 * the ones listed in KNOWN_GAPS (see the README, "Conformance").
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { once } from "node:events";
import { startTestEndpoint, type TestEndpoint } from "../mcp/helpers/endpoint";
import { ROOT } from "../mcp/helpers/setup";
import { runSuite, tokenProxy, type SuiteRun } from "./suite";

/**
 * Scenarios the upstream passes and Spillway does not yet, each with why. Requests from an upstream
 * to the client (sampling, elicitation) are not relayed yet; the suite's polling scenario checks
 * that the endpoint itself primes and resumes its SSE streams, which `spillway serve` does not do yet.
 */
const KNOWN_GAPS: Record<string, string> = {
  "tools-call-sampling": "sampling/createMessage from an upstream is not relayed to the client yet",
  "tools-call-elicitation": "elicitation/create from an upstream is not relayed to the client yet",
  "elicitation-sep1034-defaults": "elicitation/create from an upstream is not relayed to the client yet",
  "elicitation-sep1330-enums": "elicitation/create from an upstream is not relayed to the client yet",
};

describe("the MCP conformance suite", () => {
  let child: ChildProcess;
  let upstreamUrl: string;
  let t: TestEndpoint;
  let proxy: { url: string; close: () => Promise<void> };
  let alone: SuiteRun;

  beforeAll(async () => {
    child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "tests/conformance/conformanceServer.ts")], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const [first] = (await once(child.stdout!, "data")) as [Buffer];
    upstreamUrl = first.toString("utf8").trim();
    t = await startTestEndpoint({ mcpServers: { conformance: { type: "http", url: upstreamUrl } } });
    proxy = await tokenProxy(t.ep.port, t.token);
    alone = await runSuite(upstreamUrl);
  }, 300_000);
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
    child?.kill("SIGTERM");
  });

  it("passes on the upstream alone: it implements every server scenario", () => {
    expect([...alone.failed.keys()]).toEqual([]);
    expect(alone.passed.size).toBeGreaterThanOrEqual(30);
  });

  it("passes through spillway serve every scenario the upstream passes, but the known gaps", async () => {
    const through = await runSuite(proxy.url);
    const missing = [...alone.passed].filter((s) => !through.passed.has(s) && !(s in KNOWN_GAPS));
    expect(missing.map((s) => `${s}: ${through.failed.get(s)?.join("; ") ?? "not run"}`)).toEqual([]);
    // A gap that closed should leave the list.
    const closed = Object.keys(KNOWN_GAPS).filter((s) => through.passed.has(s));
    expect(closed).toEqual([]);
    console.info(`conformance: upstream alone ${alone.passed.size}/${alone.passed.size + alone.failed.size}, through spillway serve ${through.passed.size}/${through.passed.size + through.failed.size}`);
  }, 300_000);
});
