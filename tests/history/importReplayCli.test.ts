/** `spillway import` and `spillway replay` as a user runs them, on the histories the real CLIs wrote. */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT } from "../mcp/helpers/setup";
import { tempHome } from "../helpers/tempHome";
import { FIXTURE_PATHS } from "../fixtures/history/fixtures";

function spillway(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

describe("spillway import and replay", () => {
  let home: ReturnType<typeof tempHome>;
  beforeAll(() => (home = tempHome("spillway-history-cli-")));
  afterAll(() => home.cleanup());

  it("import prints progress on stderr and a summary; a second import adds nothing", async () => {
    const first = await spillway(["import", "claude-code", FIXTURE_PATHS["claude-code"], "--home", home.path]);
    expect(first.code, first.err).toBe(0);
    expect(first.err).toMatch(/importing 100 % \(1\/1 files, [\d.]+ KB of [\d.]+ KB\): 1 sessions, 7 calls added/);
    expect(first.out).toMatch(/imported 1 session from .*\n\s+calls\s+7 added, 0 already imported/);
    const again = await spillway(["import", "claude", FIXTURE_PATHS["claude-code"], "--home", home.path, "--json"]);
    expect(JSON.parse(again.out)).toMatchObject({ agent: "claude-code", sessions: 1, callsAdded: 0, callsKept: 7 });
    for (const agent of ["codex", "gemini-cli", "opencode"]) {
      const r = await spillway(["import", agent, FIXTURE_PATHS[agent as "codex"], "--home", home.path, "-q"]);
      expect(r.code, r.err).toBe(0);
    }
  });

  it("replay --json gives per-request prompt tokens for two policies side by side, and the exports agree", async () => {
    const policy = join(home.path, "aggressive.json");
    writeFileSync(policy, JSON.stringify({ name: "aggressive", rescue: { thresholdChars: 2_000 }, excerpt: { maxChars: 1_000 } }));
    const current = join(home.path, "current.json");
    writeFileSync(current, JSON.stringify({ name: "current" }));
    const r = await spillway(["replay", "--agent", "gemini-cli", "--policy", current, "--policy", policy, "--json", "--home", home.path]);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.totals.policies.map((p: { name: string }) => p.name)).toEqual(["current", "aggressive"]);
    expect(report.sessions).toHaveLength(1);
    const [s] = report.sessions;
    expect(s.requests.length).toBeGreaterThan(1);
    // The whole history is re-sent: prompt tokens never shrink from one request to the next (no compaction here).
    for (let i = 1; i < s.requests.length; i++) expect(s.requests[i].asHappened).toBeGreaterThanOrEqual(s.requests[i - 1].asHappened);
    expect(report.totals.policies[1].promptTokens).toBeLessThanOrEqual(report.totals.policies[0].promptTokens);
    const csvFile = join(home.path, "replay.csv");
    expect(
      (
        await spillway([
          "replay",
          "--agent",
          "gemini-cli",
          "--policy",
          current,
          "--policy",
          policy,
          "--format",
          "csv",
          "--out",
          csvFile,
          "--home",
          home.path,
        ])
      ).code,
    ).toBe(0);
    expect(readFileSync(csvFile, "utf8").trim().split("\n")).toHaveLength(1 + report.totals.calls);
    const md = await spillway(["replay", "--format", "md", "--home", home.path]);
    expect(md.out).toMatch(/^# Spillway replay\n\n4 imported sessions/);
    const text = await spillway(["replay", "--home", home.path]);
    expect(text.out).toMatch(/as it happened\s+[\d,]+/);
    expect(text.out).toContain("where the savings come from");
  });

  it("errors are one line and a non-zero exit", async () => {
    const bad = join(home.path, "bad.json");
    writeFileSync(bad, JSON.stringify({ rescue: { thresholdChars: "big" } }));
    for (const args of [
      ["import", "vim"],
      ["import", "codex", join(home.path, "nowhere")],
      ["replay", "--policy", bad],
      ["replay", "--session", "nope"],
      ["replay", "--agent", "codex", "--session", "x"],
    ]) {
      const r = await spillway([...args, "--home", home.path]);
      expect(r.code, args.join(" ")).not.toBe(0);
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.err).toMatch(/^spillway (import|replay): /);
    }
  });

  it("replay --project takes the folder with or without a trailing slash, and says when none matches", async () => {
    const slash = await spillway(["replay", "--project", "/home/dev/project/", "--json", "--home", home.path]);
    expect(slash.code, slash.err).toBe(0);
    expect(JSON.parse(slash.out).totals.sessions).toBeGreaterThan(0);
    const none = await spillway(["replay", "--project", "/home/dev/elsewhere", "--home", home.path]);
    expect(none.code).toBe(1);
    expect(none.err.trim()).toBe(
      "spillway replay: no imported history matches --project /home/dev/elsewhere; without it, all imported history is replayed",
    );
  });

  it("a file that is not the agent's history imports nothing and says so, with a non-zero exit", async () => {
    const notes = join(home.path, "notes.txt");
    writeFileSync(notes, "root:x:0:0:root:/root:/bin/bash\nnot a transcript\n");
    const r = await spillway(["import", "claude-code", notes, "--home", home.path]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^nothing was read as claude-code history: is .*notes\.txt the folder it keeps its sessions in\?/m);
    expect(r.out).not.toMatch(/next: spillway replay/);
  });
});
