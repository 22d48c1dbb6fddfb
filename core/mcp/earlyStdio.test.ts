// The early initialize and tools/list answers against the real SDK Server: the same bytes for the
// same request, and a hand-over to the Server (through the real stdio transport) that loses and reorders nothing.
import { watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { tempHome } from "../../tests/helpers/tempHome";
import { defaultConfig } from "../config/config";
import { memoryLogger } from "../runtime";
import { startEarlyStdio, type StdinPrelude } from "./earlyStdio";
import type { DeferredEngine } from "./engineSource";
import { createProxyServer } from "./proxyServer";
import { serveStdio } from "./stdioMcp";
import { LineStdioServerTransport } from "./stdioServerTransport";
import { configFingerprint, readCachedList, writeCachedList, type ListKey } from "./toolsListCache";
import { createUpstreamManager } from "./upstreamManager";

const config = defaultConfig();

function deferred(logger = memoryLogger()): DeferredEngine {
  return { config, logger, touchSession: () => {}, load: () => Promise.reject(new Error("no engine in this test")) };
}

/** The lines a stream carries, and a wait for the nth. */
function lines(out: PassThrough) {
  const got: string[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let buf = "";
  out.setEncoding("utf8");
  out.on("data", (d: string) => {
    buf += d;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      got.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
    for (const waiter of waiters.filter((w) => got.length >= w.n)) waiter.resolve();
  });
  return { got, atLeast: (n: number) => new Promise<void>((resolve) => (got.length >= n ? resolve() : waiters.push({ n, resolve }))) };
}

const init = (protocolVersion: unknown, id: string | number = 1, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: { roots: { listChanged: true } }, clientInfo: { name: "host", version: "2.1" }, ...extra },
  });

/** What the SDK Server (Spillway's proxy) writes for one line, with no early reader in front. */
async function serverAnswer(line: string): Promise<string> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out = lines(stdout);
  const logger = memoryLogger();
  const server = createProxyServer({ engine: deferred(logger), upstreams: createUpstreamManager(config, logger), sessionId: "s" });
  await server.connect(new LineStdioServerTransport(stdin, stdout));
  stdin.write(line + "\n");
  await out.atLeast(1);
  await server.close();
  return out.got[0]!;
}

/** What the early reader writes for one line; null when it leaves the line to the Server. */
async function earlyAnswer(line: string): Promise<string | null> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out = lines(stdout);
  const prelude = startEarlyStdio(stdin, stdout);
  stdin.write(line + "\n");
  await prelude.settled;
  const state = prelude.handOver();
  expect(state.bytes.toString()).toBe(line + "\n");
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(out.got.length).toBe(state.answered.length);
  return out.got[0] ?? null;
}

/** The SDK Server taking the streams over from the early reader, as spillway mcp does once it has loaded. */
function serveAfter(prelude: StdinPrelude, stdin: PassThrough, stdout: PassThrough) {
  const logger = memoryLogger();
  const served = serveStdio({
    engine: deferred(logger),
    upstreams: createUpstreamManager(config, logger),
    sessionId: "s",
    stdin,
    stdout,
    prelude,
  });
  return { logger, served };
}

describe("the early initialize answer", () => {
  it.each([
    ["the latest version", init("2025-11-25")],
    ["an older supported version", init("2025-06-18")],
    ["the oldest supported version", init("2024-10-07", "req-1")],
    ["an unsupported version (the Server offers its latest)", init("1999-01-01", 7)],
    [
      "a client with a title, icons and _meta",
      init("2025-03-26", 3, {
        _meta: { progressToken: 1 },
        clientInfo: { name: "host", title: "Host", version: "2.1", icons: [{ src: "https://example.com/h.png" }] },
      }),
    ],
  ])("is byte for byte the Server's answer for %s", async (_, line) => {
    const early = await earlyAnswer(line);
    expect(early).not.toBeNull();
    expect(early).toBe(await serverAnswer(line));
  });

  it.each([
    ["a first message that is not initialize", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })],
    [
      "initialize without clientInfo",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {} } }),
    ],
    ["initialize with a non-string version", init(20250618)],
    ["initialize with capabilities the SDK refuses", init("2025-06-18", 1, { capabilities: { sampling: true } })],
    ["an id that is not an integer", init("2025-06-18", 1.5)],
    ["a key JSON-RPC does not have", JSON.stringify({ ...JSON.parse(init("2025-06-18")), extra: 1 })],
    ["a line that is not JSON", "{not json"],
  ])("leaves %s to the Server", async (_, line) => {
    expect(await earlyAnswer(line)).toBeNull();
  });
});

describe("the hand-over from the early reader to the Server", () => {
  async function run(write: (stdin: PassThrough) => void, expected: number) {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const prelude: StdinPrelude = startEarlyStdio(stdin, stdout);
    write(stdin);
    await prelude.settled;
    const { logger, served } = serveAfter(prelude, stdin, stdout);
    return { stdin, out, logger, served, done: out.atLeast(expected) };
  }

  it("answers initialize once and every request written before and after it, in order", async () => {
    const pings = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => JSON.stringify({ jsonrpc: "2.0", id: from + i, method: "ping" }));
    const before = [
      init("2025-06-18"),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      ...pings(2, 5),
      JSON.stringify({ jsonrpc: "2.0", id: 6, method: "tools/list" }),
      ...pings(7, 9),
    ].join("\n");
    // The last message before the hand-over is cut mid-line: its tail arrives after.
    const cut = before.length + 1 + 12;
    const rest = [...pings(10, 10), ...pings(11, 13)].join("\n") + "\n";
    const all = before + "\n" + rest;
    const r = await run((stdin) => stdin.write(all.slice(0, cut)), 13);
    // The early answer went out before the Server existed; the rest waits for it.
    expect(r.out.got.map((l) => JSON.parse(l).id)).toEqual([1]);
    r.stdin.write(all.slice(cut));
    await r.done;
    const answers = r.out.got.map((l) => JSON.parse(l));
    // Each once; pings are answered as they are handled, so their answers show the order they reached the Server.
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(answers.map((a) => a.id).filter((id) => id !== 6)).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13]);
    expect(answers[0].result.protocolVersion).toBe("2025-06-18");
    const list = answers.find((a) => a.id === 6);
    expect(list.result.tools.map((t: { name: string }) => t.name).sort()).toEqual(["recall_result", "rescuer_fetch"]);
    expect(answers.filter((a) => a.error)).toEqual([]);
    // Nothing said the two answers differed.
    expect(r.logger.entries.filter((e) => JSON.stringify(e).includes("early initialize"))).toEqual([]);
    r.stdin.end();
    await r.served;
  });

  it("lets the Server answer a first message the early reader did not, once", async () => {
    const bad = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18" } });
    const r = await run((stdin) => stdin.write(bad + "\n" + init("2025-06-18", 2) + "\n"), 2);
    await r.done;
    const answers = r.out.got.map((l) => JSON.parse(l));
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[0].error.code).toBe(-32602);
    expect(answers[1].result.serverInfo.name).toBe("spillway");
    r.stdin.end();
    await r.served;
  });

  it("ends the session when stdin ended before the hand-over", async () => {
    const r = await run((stdin) => stdin.end(init("2025-06-18") + "\n"), 1);
    await r.served;
    expect(r.out.got.map((l) => JSON.parse(l).id)).toEqual([1]);
  });
});

describe("tools/list answered early from the last complete answer", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome("spillway-early-list-")));
  afterEach(() => home.cleanup());
  const keyOf = (build = "spillway-test.script.js"): ListKey => {
    const configPath = join(home.path, "config.json");
    return { home: home.path, build, configPath, config: configFingerprint(configPath) };
  };
  const list = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" });
  const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

  /** Resolves once the home holds a cached list for `key`. */
  function whenKept(key: ListKey): Promise<void> {
    return new Promise((resolve) => {
      const check = () => readCachedList(key) !== null && (watcher.close(), resolve());
      const watcher = watch(home.path, check);
      check();
    });
  }

  /** One session: the early reader (with `key`), then the Server; the answers once `expected` lines arrived. */
  async function session(key: ListKey, input: string, expected: number) {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const prelude = startEarlyStdio(stdin, stdout, { cachedList: () => readCachedList(key) });
    prelude.listKey = key;
    stdin.write(input);
    await prelude.settled;
    const early = [...out.got];
    const { served } = serveAfter(prelude, stdin, stdout);
    await out.atLeast(expected);
    stdin.end();
    await served;
    return { early, all: out.got };
  }

  it("gives the Server's own answer, byte for byte, once the Server has given one", async () => {
    const key = keyOf();
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" });
    const input = [init("2025-06-18"), initialized, list(2), ping].join("\n") + "\n";
    const first = await session(key, input, 3);
    // No answer kept yet: only initialize was answered early.
    expect(first.early.map((l) => JSON.parse(l).id)).toEqual([1]);
    await whenKept(key);
    const second = await session(key, input, 3);
    expect(second.early).toEqual(first.all.filter((l) => JSON.parse(l).id !== 3));
    // The Server's answers to both were dropped: only the ping's went out after them.
    expect(second.all.slice(2)).toEqual(first.all.filter((l) => JSON.parse(l).id === 3));
    expect(second.all.length).toBe(3);
  });

  it("is not given by another build or for an edited config", async () => {
    const key = keyOf();
    writeCachedList(key, { tools: [] });
    expect(readCachedList(key)).toEqual({ tools: [] });
    expect(readCachedList(keyOf("spillway-other.script.js"))).toBeNull();
    writeFileSync(key.configPath, "{}");
    expect(readCachedList(keyOf())).toBeNull();
  });

  it("is followed by tools/list_changed when the Server's list differs from the kept one", async () => {
    const key = keyOf();
    writeCachedList(key, { tools: [{ name: "gone", inputSchema: { type: "object" } }] });
    const r = await session(key, [init("2025-06-18"), initialized, list(2)].join("\n") + "\n", 3);
    const answers = r.all.map((l) => JSON.parse(l));
    expect(answers.map((a) => a.id ?? a.method)).toEqual([1, 2, "notifications/tools/list_changed"]);
    expect(answers[1].result.tools.map((t: { name: string }) => t.name)).toEqual(["gone"]);
  });
});
