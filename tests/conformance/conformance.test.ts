/**
 * The official MCP conformance suite (server mode) against an upstream written from its scenarios,
 * alone, behind `spillway serve` (the endpoint's code, in process, reached through a loopback
 * proxy that adds the bearer token) and behind `spillway mcp` over stdio (real child processes,
 * reached through stdioBridge.ts, as the suite drives only HTTP servers): Spillway passes every
 * scenario its upstream passes, except any listed in BY_DESIGN.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { once } from "node:events";
import { startTestEndpoint, type TestEndpoint } from "../mcp/helpers/endpoint";
import { ROOT, writeConfig } from "../mcp/helpers/setup";
import { tempHome } from "../helpers/tempHome";
import { stdioBridge } from "./stdioBridge";
import { runSuite, tokenProxy, type SuiteRun } from "./suite";

/**
 * Scenarios the upstream passes that Spillway may fail by design, each with why (README,
 * "Conformance"). None today: rescue leaves every result of the suite's tools untouched (all are
 * small), and the scenarios check nothing a handle would change.
 */
const BY_DESIGN: Record<string, string> = {};

describe("the MCP conformance suite", () => {
  let child: ChildProcess;
  let upstreamUrl: string;
  let t: TestEndpoint;
  let proxy: { url: string; close: () => Promise<void> };
  let alone: SuiteRun;
  const counts: string[] = [];
  const count = (name: string, r: SuiteRun) => counts.push(`${name} ${r.passed.size}/${r.passed.size + r.failed.size}`);
  /** The scenarios the upstream passes that `through` does not, but those failed by design, with why. */
  const missing = (through: SuiteRun) =>
    [...alone.passed]
      .filter((s) => !through.passed.has(s) && !(s in BY_DESIGN))
      .map((s) => `${s}: ${through.failed.get(s)?.join("; ") ?? "not run"}`);

  beforeAll(async () => {
    child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "tests/conformance/conformanceServer.ts")], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [first] = (await once(child.stdout!, "data")) as [Buffer];
    upstreamUrl = first.toString("utf8").trim();
    t = await startTestEndpoint({ mcpServers: { conformance: { type: "http", url: upstreamUrl } } });
    proxy = await tokenProxy(t.ep.port, t.token);
    alone = await runSuite(upstreamUrl);
    count("upstream alone", alone);
  }, 300_000);
  afterAll(async () => {
    console.info(`conformance: ${counts.join(", ")}`);
    await proxy?.close();
    await t?.close();
    child?.kill("SIGTERM");
  });

  it("passes on the upstream alone: it implements every server scenario", () => {
    expect([...alone.failed.keys()]).toEqual([]);
    expect(alone.passed.size).toBeGreaterThanOrEqual(30);
  });

  it("passes through spillway serve every scenario the upstream passes, but those it fails by design", async () => {
    const through = await runSuite(proxy.url);
    count("through spillway serve", through);
    expect(missing(through)).toEqual([]);
    // An exception that no longer fails should leave the list.
    expect(Object.keys(BY_DESIGN).filter((s) => through.passed.has(s))).toEqual([]);
  }, 300_000);

  it("passes through spillway mcp over stdio every scenario the upstream passes, but those it fails by design", async () => {
    const home = tempHome("spillway-conformance-stdio-");
    writeConfig(home.path, { mcpServers: { conformance: { type: "http", url: upstreamUrl } } });
    const bridge = await stdioBridge(home.path);
    try {
      const through = await runSuite(bridge.url);
      count("through spillway mcp", through);
      expect(missing(through)).toEqual([]);
      expect(Object.keys(BY_DESIGN).filter((s) => through.passed.has(s))).toEqual([]);
      // Each scenario really reached a spillway mcp process of its own.
      expect(bridge.children()).toBeGreaterThanOrEqual(alone.passed.size);
    } finally {
      await bridge.close();
      home.cleanup();
    }
  }, 400_000);
});
