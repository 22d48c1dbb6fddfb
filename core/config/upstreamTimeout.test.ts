import { AGENTS, connectContext } from "../connect";
import { parseConfig } from "./config";

describe("server.upstreamTimeoutMs", () => {
  it("is not shorter than any tool timeout `spillway connect` writes into a host, so a long tool fails on the host's timeout, not only behind Spillway", () => {
    const ours = parseConfig({}).server.upstreamTimeoutMs;
    const c = connectContext("/tmp/spillway-home", 7341);
    const hostMs: [string, number][] = [];
    for (const a of AGENTS) {
      const text = a.snippet(c);
      for (const m of text.matchAll(/tool_timeout_sec = (\d+)/g)) hostMs.push([a.name, Number(m[1]) * 1000]);
      for (const m of text.matchAll(/"timeout": (\d+)/g)) if (Number(m[1]) >= 60_000) hostMs.push([a.name, Number(m[1])]);
    }
    // Codex's tool_timeout_sec and Gemini CLI's timeout are written today: the check has something to hold.
    expect(hostMs.map(([n]) => n)).toEqual(expect.arrayContaining(["codex", "gemini-cli"]));
    for (const [, ms] of hostMs) expect(ours).toBeGreaterThanOrEqual(ms);
  });
});
