// The call table's filter, answered by the store over all of a session's calls (real SQLite, the
// real engine writing the calls, fetches and expansions).
import { parseConfig } from "../../config/config";
import { createEngine, type Engine } from "../../engine/engine";
import { memoryLogger } from "../../runtime";
import { tempHome } from "../../../tests/helpers/tempHome";
import type { CallQuery } from "./callModel";

const S = "sess-filter";
const big = (seed: string) => Array.from({ length: 600 }, (_, i) => `${seed} line ${i}: request served in ${i % 97} ms`).join("\n");

describe("calls filtered in the store", () => {
  let home: ReturnType<typeof tempHome>;
  let engine: Engine;
  const ids: Record<string, number> = {};
  const find = (q: Partial<CallQuery>) => engine.reader.findCalls({ sessionId: S, afterCallId: 0, limit: 200, ...q });
  const tools = (q: Partial<CallQuery>) => find(q).calls.map((c) => c.id);

  beforeAll(() => {
    home = tempHome();
    engine = createEngine({ home: home.path, config: parseConfig({}), logger: memoryLogger() });
    const call = (name: string, tool: string, args: unknown, text: string, server: string | null = "files") => {
      const r = engine.transformToolResult({ sessionId: S, tool, server, args, text });
      ids[name] = r.callId!;
      return r;
    };
    // 450 calls: the tool searched for is the 3rd and the 440th, far past the first page of 200.
    const log = call("log", "read_text_file", { path: "/srv/app/Nightly.log" }, big("nightly"));
    engine.fetch({ sessionId: S, id: log.blobId, mode: "grep", args: { pattern: "served" } });
    call("listing", "list_directory", { path: "/srv/100%_done" }, "a.txt\nb.txt");
    call("rare1", "search_files", { pattern: "*.md" }, "README.md");
    for (let i = 0; i < 435; i++) call(`info${i}`, "get_file_info", { path: `/srv/f${i}` }, `size: ${i}`);
    // The same log again: a stub, and from now on the latest call that returned it.
    call("repeat", "read_text_file", { path: "/srv/app/Nightly.log" }, big("nightly"));
    engine.fetch({ sessionId: S, id: log.blobId, mode: "no-such-mode" });
    ids.crash = engine.recordFailedCall({
      sessionId: S,
      tool: "crash",
      server: "fx",
      args: {},
      message: "The upstream server fx stopped while running crash.",
    })!;
    const x = engine.expandArguments({ sessionId: S, tool: "run_shell", server: "sh", args: { cmd: `cat spill:${log.blobId}` } });
    call("shell", "run_shell", x.args, "ok", "sh");
    engine.noteCall(ids.shell!, { expansionEventIds: x.eventIds });
    call("rare2", "search_files", { pattern: "*.ts" }, "index.ts");
    for (let i = 0; i < 5; i++) call(`tail${i}`, "get_file_info", { path: `/srv/t${i}` }, `size: ${i}`);
    engine.transformToolResult({ sessionId: "other-session", tool: "search_files", args: { pattern: "*" }, text: "x" });
  });
  afterAll(async () => {
    await engine.close();
    home.cleanup();
  });

  it("a tool far past the first page is found, with how many of the session's calls match", () => {
    expect(engine.reader.timeline(S, 0, 200).calls.filter((c) => c.tool === "search_files")).toHaveLength(1);
    const r = find({ tool: "search_files" });
    expect(r.calls.map((c) => c.id)).toEqual([ids.rare1, ids.rare2]);
    expect(r).toMatchObject({ matched: 2, total: 447, nextAfter: null });
    expect(r.tools[0]).toEqual({ tool: "get_file_info", calls: 440 });
    expect(r.tools.map((t) => t.tool).sort()).toEqual([
      "crash",
      "get_file_info",
      "list_directory",
      "read_text_file",
      "run_shell",
      "search_files",
    ]);
  });

  it("by outcome, and by text over tool, arguments, blob id and error, case-insensitive and literal", () => {
    expect(tools({ outcome: "stubbed" })).toEqual([ids.repeat]);
    expect(tools({ outcome: "error" })).toEqual([ids.crash]);
    expect(tools({ text: "nightly.LOG" })).toEqual([ids.log, ids.repeat]);
    expect(tools({ text: "STOPPED while" })).toEqual([ids.crash]);
    expect(tools({ text: "100%_" })).toEqual([ids.listing]);
    expect(tools({ text: "1%0" })).toEqual([]);
    const blob = find({ outcome: "rescued" }).calls[0]!.blobId!;
    // The shell call names it too, in the spill: reference of its arguments.
    expect(tools({ text: blob })).toEqual([ids.log, ids.repeat, ids.shell]);
    expect(tools({ text: "nightly", outcome: "rescued" })).toEqual([ids.log]);
  });

  it("failures only: the failed call, the latest call whose result a refused read was of, and a denied reference", () => {
    const r = find({ failuresOnly: true });
    expect(r.calls.map((c) => c.id)).toEqual([ids.repeat, ids.crash, ids.shell]);
    const [repeat, crash, shell] = r.calls;
    expect(repeat!.reads.refused).toBe(1);
    expect(crash!.isError).toBe(true);
    expect(shell!.received.denied).toBe(1);
    // The first read of the log, a grep, was answered: its call is no failure.
    expect(find({ tool: "read_text_file" }).calls.find((c) => c.id === ids.log)!.reads).toMatchObject({ count: 1, refused: 0 });
  });

  it("pages through the matches", () => {
    const first = find({ tool: "get_file_info", limit: 200 });
    expect(first.calls).toHaveLength(200);
    expect(first.matched).toBe(440);
    const rest = [first];
    while (rest.at(-1)!.nextAfter !== null) rest.push(find({ tool: "get_file_info", afterCallId: rest.at(-1)!.nextAfter! }));
    const all = rest.flatMap((p) => p.calls.map((c) => c.id));
    expect(all).toHaveLength(440);
    expect(new Set(all).size).toBe(440);
    expect(all.at(-1)).toBe(ids.tail4);
  });
});
