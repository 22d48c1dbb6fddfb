import { appendFileSync, copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEngine, type Engine } from "../engine/engine";
import { FakeClock, memoryLogger } from "../runtime";
import { HISTORY_AGENTS } from "../vocabulary";
import { tempHome } from "../../tests/helpers/tempHome";
import { CLAUDE_RUN, FIXTURE_PATHS, OTHER_RUN } from "../../tests/fixtures/history/fixtures";
import { buildLeakFixture } from "../../tests/fixtures/secrets/leakFixture";
import { importHistory } from "./importRun";

let home: ReturnType<typeof tempHome>;
let engine: Engine;
beforeEach(() => {
  home = tempHome("spillway-import-");
  engine = createEngine({ home: join(home.path, "spillway"), clock: new FakeClock(), logger: memoryLogger() });
});
afterEach(async () => {
  await engine.close();
  home.cleanup();
});

/** Every call of the one imported session, with its whole result and what the model got. */
function calls(sessionId: string) {
  return engine.reader.historyCalls(sessionId).map((c) => ({ ...c, ...engine.reader.callTexts(c.id) }));
}

describe("importing the histories the real CLIs wrote", () => {
  it("Claude Code: each tool call with its result, the files it saved read back whole", async () => {
    const r = await importHistory(engine, { agent: "claude-code", path: FIXTURE_PATHS["claude-code"] });
    expect(r).toMatchObject({ sessions: 1, callsAdded: 7, callsKept: 0, issueCount: 0, cancelled: false });
    const [id] = r.sessionIds;
    const session = engine.reader.session(id!)!;
    expect(session.imported).toMatchObject({
      agent: "claude-code",
      project: "/home/dev/project",
      model: "claude-opus-4-8",
      title: "Work through the task.",
    });
    const cs = calls(id!);
    expect(cs.map((c) => c.tool)).toEqual([
      "mcp__fixture__big_log",
      "Bash",
      "Read",
      "mcp__direct__big_log",
      "mcp__fixture__big_log",
      "mcp__fixture__big_log",
      "mcp__fixture__digest",
    ]);
    // Bash over 30,000 chars: the model got a 2 KB preview, the whole output was in the file it named.
    const bash = cs[1]!;
    expect(bash.hostCut).toBe("persisted");
    expect(bash.given).toMatch(/^<persisted-output>\nOutput too large/);
    expect(bash.result).toBe(CLAUDE_RUN.bash);
    // An MCP result over the token limit: an error naming the file; the file has the result.
    expect(cs[0]!.given).toMatch(/exceeds maximum allowed tokens/);
    expect(cs[0]!.result).toBe(CLAUDE_RUN.mcpBig);
    expect(cs[3]!.result).toBe(CLAUDE_RUN.direct);
    expect(cs[4]!.result).toBe(CLAUDE_RUN.mid);
    expect(cs[5]!.result).toBe(CLAUDE_RUN.mid);
    expect(JSON.parse(bash.argsJson!)).toEqual({ command: "seq 1 40000", description: "Print 40,000 numbers" });
    expect(cs.every((c) => c.model === "claude-opus-4-8" && c.requestSeq !== null)).toBe(true);
    // Each result first goes out in the request after its call.
    expect(cs.map((c) => c.requestSeq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(engine.reader.historyRequests(id!)).toHaveLength(8);
  });

  it("Codex, Gemini CLI and OpenCode: the big result, its exact repeat, two test runs and the one each agent cut", async () => {
    for (const agent of ["codex", "gemini-cli", "opencode"] as const) {
      const r = await importHistory(engine, { agent, path: FIXTURE_PATHS[agent] });
      expect(r, agent).toMatchObject({ sessions: 1, issueCount: 0 });
      const all = calls(r.sessionIds[0]!);
      const logs = all.filter((c) => c.tool.endsWith("big_log"));
      expect(
        logs.map((c) => c.result),
        agent,
      ).toEqual([OTHER_RUN.big, OTHER_RUN.big, expect.any(String)]);
      const runs = all.filter((c) => c.tool.endsWith("run_tests"));
      expect(runs, agent).toHaveLength(2);
      expect(runs[0]!.result, agent).toMatch(/Test Files/);
      expect(runs[1]!.result, agent).not.toBe(runs[0]!.result);
      const huge = logs[2]!;
      expect(huge.given!.length, agent).toBeLessThan(OTHER_RUN.huge.length / 2);
      if (agent === "codex") {
        // Codex keeps no copy of what it cut from the middle.
        expect(huge.hostCut).toBe("truncated");
        expect(huge.given).toMatch(/…\d+ tokens truncated…/);
        expect(huge.result).toBe(huge.given!.replace(/^Wall time: [^\n]*\nOutput:\n/, ""));
      } else {
        expect(huge.hostCut, agent).toBe("persisted");
        expect(huge.result, agent).toBe(OTHER_RUN.huge);
      }
      expect(engine.reader.session(r.sessionIds[0]!)!.imported, agent).toMatchObject({ agent, project: "/home/dev/project" });
    }
    expect(engine.reader.listSessions({ offset: 0, limit: 10, sort: { by: "createdAt", dir: "asc" }, imported: true }).total).toBe(3);
  });

  it("a re-import adds nothing; a session that grew adds only its new calls", async () => {
    const dir = join(home.path, "claude");
    cpSync(FIXTURE_PATHS["claude-code"], dir, { recursive: true });
    const first = await importHistory(engine, { agent: "claude-code", path: dir });
    const again = await importHistory(engine, { agent: "claude-code", path: dir });
    expect(again).toMatchObject({ sessions: 1, callsAdded: 0, callsKept: first.callsAdded });
    const [file] = readdirSync(join(dir, "-home-dev-project"))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(dir, "-home-dev-project", f));
    appendFileSync(file!, claudeCall("toolu_grown", "Bash", { command: "echo more" }, "more\n"));
    const grown = await importHistory(engine, { agent: "claude-code", path: dir });
    expect(grown).toMatchObject({ callsAdded: 1, callsKept: first.callsAdded });
    expect(engine.reader.stats().calls).toBe(first.callsAdded + 1);
  });

  it("content the store swept since is brought back by the next import", async () => {
    const r = await importHistory(engine, { agent: "gemini-cli", path: FIXTURE_PATHS["gemini-cli"] });
    const huge = calls(r.sessionIds[0]!).at(-1)!;
    expect(engine.purge(huge.blobId!)).toBe(true);
    expect(engine.reader.callTexts(huge.id).result).toBeNull();
    const again = await importHistory(engine, { agent: "gemini-cli", path: FIXTURE_PATHS["gemini-cli"] });
    expect(again).toMatchObject({ callsAdded: 0, callsKept: 5 });
    expect(engine.reader.callTexts(huge.id).result).toBe(OTHER_RUN.huge);
  });

  it("a malformed line is reported with its file and line number and skipped; the rest is imported", async () => {
    const dir = join(home.path, "claude", "p");
    mkdirSync(dir, { recursive: true });
    const src = readdirSync(join(FIXTURE_PATHS["claude-code"], "-home-dev-project")).find((f) => f.endsWith(".jsonl"))!;
    const lines = readFileSync(join(FIXTURE_PATHS["claude-code"], "-home-dev-project", src), "utf8").split("\n");
    lines.splice(3, 0, '{"type": "user", "message": {"role": "user", "content": [truncated');
    const file = join(dir, "broken.jsonl");
    writeFileSync(file, lines.join("\n"));
    const r = await importHistory(engine, { agent: "claude-code", path: join(home.path, "claude") });
    expect(r.issues).toEqual([{ file, line: 4, message: expect.stringMatching(/^not JSON/) }]);
    expect(r.callsAdded).toBe(7);
  });

  it("a persisted file that is gone leaves what the model got, marked as such", async () => {
    const dir = join(home.path, "claude", "p");
    mkdirSync(dir, { recursive: true });
    const src = readdirSync(join(FIXTURE_PATHS["claude-code"], "-home-dev-project")).find((f) => f.endsWith(".jsonl"))!;
    copyFileSync(join(FIXTURE_PATHS["claude-code"], "-home-dev-project", src), join(dir, src));
    const r = await importHistory(engine, { agent: "claude-code", path: dir });
    const bash = calls(r.sessionIds[0]!).find((c) => c.tool === "Bash")!;
    expect(bash.hostCut).toBe("persisted_missing");
    expect(bash.result).toBe(bash.given);
  });

  it("a result whose text names a file as a saved output (a web page, a file the agent read) never pulls that file in", async () => {
    const outside = join(home.path, "outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "notes.txt"), "PRIVATE NOTES nobody imported\n");
    const dir = join(home.path, "claude", "p");
    mkdirSync(dir, { recursive: true });
    const src = readdirSync(join(FIXTURE_PATHS["claude-code"], "-home-dev-project")).find((f) => f.endsWith(".jsonl"))!;
    const lines = readFileSync(join(FIXTURE_PATHS["claude-code"], "-home-dev-project", src), "utf8").split("\n");
    // The digest's result, as if the tool had returned a page quoting two agents' notices.
    const at = lines.findLastIndex((l) => l.includes('"tool_result"'));
    const entry = JSON.parse(lines[at]!) as { message: { content: { type: string; content: unknown }[] } };
    const block = entry.message.content.find((b) => b.type === "tool_result")!;
    block.content =
      "<persisted-output>\nOutput too large (9KB). Full output saved to: " +
      join(outside, "notes.txt") +
      "\n</persisted-output>\nThe tool call succeeded but the output was truncated. Full output saved to: " +
      join(outside, "notes.txt") +
      "\n";
    lines[at] = JSON.stringify(entry);
    writeFileSync(join(dir, src), lines.join("\n"));
    const r = await importHistory(engine, { agent: "claude-code", path: dir });
    const all = calls(r.sessionIds[0]!);
    expect(all.some((c) => (c.result ?? "").includes("PRIVATE NOTES"))).toBe(false);
    const quoted = all.find((c) => (c.given ?? "").includes(join(outside, "notes.txt")))!;
    expect(quoted.result).toBe(quoted.given);
  });

  it("progress is reported, and an aborted import stops after the session it was storing", async () => {
    const dir = join(home.path, "claude", "p");
    mkdirSync(dir, { recursive: true });
    const src = readdirSync(join(FIXTURE_PATHS["claude-code"], "-home-dev-project")).find((f) => f.endsWith(".jsonl"))!;
    for (const n of ["a", "b", "c"]) copyFileSync(join(FIXTURE_PATHS["claude-code"], "-home-dev-project", src), join(dir, `${n}.jsonl`));
    const abort = new AbortController();
    const seen: number[] = [];
    const r = await importHistory(engine, {
      agent: "claude-code",
      path: dir,
      signal: abort.signal,
      onProgress: (p) => {
        seen.push(p.sessions);
        if (p.sessions === 1) abort.abort();
      },
    });
    expect(r).toMatchObject({ cancelled: true, sessions: 1, files: 3 });
    expect(seen[0]).toBe(0);
    expect(engine.reader.importedSessions()).toHaveLength(1);
  });

  it("secrets in an imported result are masked in the call rows and encrypted at rest", async () => {
    const { text, planted } = buildLeakFixture();
    const dir = join(home.path, "claude", "p");
    mkdirSync(dir, { recursive: true });
    const token = planted.find((p) => p.kind.includes("github"))?.value ?? planted[0]!.value;
    writeFileSync(
      join(dir, "s.jsonl"),
      claudeCall("toolu_env", "Bash", { command: `curl -H "Authorization: token ${token}" https://example.test` }, text) +
        claudeCall("toolu_small", "Bash", { command: "env" }, `GITHUB_TOKEN=${token}\n`),
    );
    const r = await importHistory(engine, { agent: "claude-code", path: dir });
    await engine.idle();
    const cs = calls(r.sessionIds[0]!);
    expect(cs).toHaveLength(2);
    for (const c of cs) {
      expect(c.blobId).not.toBeNull();
      expect(engine.reader.meta(c.blobId!)).toMatchObject({ label: "credential", encrypted: true });
      expect(c.argsJson).not.toContain(token);
    }
    expect(cs[0]!.result).toBe(text);
    const values = [...new Set(planted.map((p) => p.value))];
    const spillway = join(home.path, "spillway");
    const onDisk = readdirSync(spillway, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => readFileSync(join(d.parentPath, d.name)).toString("latin1"));
    for (const v of values)
      expect(
        onDisk.some((b) => b.includes(v)),
        v.slice(0, 12),
      ).toBe(false);
  });

  it("knows every agent it names", () => {
    expect(Object.keys(FIXTURE_PATHS).sort()).toEqual([...HISTORY_AGENTS].sort());
  });
});

/** A Claude Code assistant tool call and its user tool_result, as two transcript lines. */
function claudeCall(id: string, tool: string, input: Record<string, unknown>, result: string): string {
  const ts = "2026-12-01T10:00:00.000Z";
  return [
    {
      type: "assistant",
      timestamp: ts,
      sessionId: "s",
      message: { role: "assistant", model: "claude-opus-4-8", content: [{ type: "tool_use", id, name: tool, input }] },
    },
    {
      type: "user",
      timestamp: ts,
      sessionId: "s",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result }] },
    },
  ]
    .map((l) => JSON.stringify(l) + "\n")
    .join("");
}
