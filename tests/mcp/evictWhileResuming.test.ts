/**
 * A session whose client is away between a poll and its resume is not closed to make room, on
 * `spillway serve` /mcp with the real SDK client over real HTTP. With server.streamHoldMs the
 * server closes a slow call's stream; a relay holds the client's resume (its GET with
 * Last-Event-ID) until the test lets it through, so new sessions arrive while the session has no
 * connection open and its answer waits in the event store. The relay also refuses the client's
 * standalone GET stream (405, which the SDK takes as "no stream offered"), so nothing but the
 * answer it is owed keeps the session. Time is a fake clock: only the grace period depends on it.
 */
import type { ServerResponse } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { FakeClock } from "../../core/runtime";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { slowCall, startRelay, steps } from "./helpers/relay";
import { httpClient, textOf, upstream } from "./helpers/setup";

type Conn = { client: Client; transport: StreamableHTTPClientTransport };

interface HoldingRelay {
  url: string;
  /** From now on, resumes are held at the relay until release() (before, they pass straight through). */
  holdResumes(): void;
  /** Resolves when the next resume reaches the relay and is held there. */
  nextResume(): Promise<void>;
  /** Held resumes whose client is still waiting for them. */
  held(): number;
  /** Lets every held resume through to the endpoint. */
  release(): void;
  close(): Promise<void>;
}

async function holdingRelay(targetPort: number): Promise<HoldingRelay> {
  let holding = false;
  let held: { res: ServerResponse; go: () => void }[] = [];
  const waitingClients = () => held.filter((h) => !h.res.destroyed);
  let waiting: (() => void)[] = [];
  const relay = await startRelay(
    targetPort,
    (req, res, _body, forward) => {
      if (req.method === "GET" && req.headers["last-event-id"] === undefined) {
        res.writeHead(405).end();
        return;
      }
      if (req.method !== "GET" || !holding) return forward();
      held.push({ res, go: () => forward() });
      for (const w of waiting.splice(0)) w();
    },
    () => {
      held = [];
      waiting = [];
    },
  );
  return {
    url: relay.url,
    holdResumes: () => (holding = true),
    nextResume: () => new Promise<void>((r) => waiting.push(r)),
    held: () => waitingClients().length,
    release: () => {
      // A client that gave up while held is not forwarded: the endpoint never hears from it again.
      const go = waitingClients();
      held = [];
      for (const h of go) h.go();
    },
    close: relay.close,
  };
}

/** Resolves once `cond` holds, checking after each turn of I/O. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

const GRACE = 60_000;

describe("spillway serve: a session waiting for its client to resume is not evicted", () => {
  const clock = new FakeClock();
  let t: TestEndpoint;
  let relay: HoldingRelay;
  const open: Conn[] = [];
  const info = (c: Conn) => t.ep.mcp.sessions().find((s) => s.id === c.transport.sessionId);
  const ids = () => t.ep.mcp.sessions().map((s) => s.id);
  /** A client that opens a session and leaves without DELETE: its session is then held by nothing. */
  const passerBy = async (name: string) => {
    const c = await httpClient(t.ep.mcpUrl, t.token, name);
    // The SDK client opens its notification stream just after initialize; it leaves once that is open.
    await until(() => info(c)?.streams === 1);
    await c.client.close();
    await until(() => (info(c)?.streams ?? 0) === 0);
    return c;
  };
  const connect = async (url: string, name: string) => {
    const c = await httpClient(url, t.token, name);
    open.push(c);
    return c;
  };
  const throughRelay = (name: string) => connect(relay.url, name);
  const leave = async (c: Conn) => {
    open.splice(open.indexOf(c), 1);
    await c.client.close();
  };

  beforeEach(async () => {
    t = await startTestEndpoint(
      { server: { maxSessions: 2, streamHoldMs: 100, sseRetryMs: 10, resumeGraceMs: GRACE }, mcpServers: { fx: upstream.fixture() } },
      { clock },
    );
    relay = await holdingRelay(t.ep.port);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.client.close()));
    await relay?.close();
    await t?.close();
  });

  it("keeps a slow call's session while other sessions come and go during the gap, and the client gets the result", async () => {
    const a = await throughRelay("poller");
    // A call that ends (once the upstream has started, maybe after polls) leaves nothing owed.
    await a.client.callTool({ name: "digest", arguments: { text: "warm up" } });
    await until(() => info(a)?.owed === 0);

    relay.holdResumes();
    const resumed = relay.nextResume();
    const call = slowCall(a.client, 4);
    await resumed;
    // The server closed the call's stream and the client's resume is held: nothing of it is open.
    // The answer is computed meanwhile and waits in the session's event store.
    await until(() => info(a)?.ready === 1);
    expect(info(a)).toMatchObject({ inflight: 0, streams: 0, owed: 1 });

    // The first newcomer fills the cap of 2; each next one makes room with the one before, never with the waiting session.
    await passerBy("newcomer-1");
    for (let i = 2; i <= 4; i++) {
      const next = await passerBy(`newcomer-${i}`);
      expect(ids().sort()).toEqual([a.transport.sessionId, next.transport.sessionId].sort());
    }

    relay.release();
    const { result, progress } = await call;
    expect(textOf(result)).toBe("done after 4 steps");
    expect(progress).toEqual(steps(4));
    await until(() => info(a)?.owed === 0);
  });

  it("refuses a newcomer with a sentence when every session holds answers its client has not collected, for the grace at most", async () => {
    const a = await throughRelay("a");
    const b = await throughRelay("b");
    // Started upstream first: the calls below are polled only once the relay holds resumes.
    await a.client.callTool({ name: "digest", arguments: { text: "warm up" } });
    relay.holdResumes();
    let both = relay.nextResume();
    const callA = slowCall(a.client, 3);
    await both;
    both = relay.nextResume();
    const callB = slowCall(b.client, 3);
    await both;
    await until(() => info(a)?.ready === 1 && info(b)?.ready === 1);

    await expect(httpClient(t.ep.mcpUrl, t.token, "newcomer")).rejects.toThrow(
      /already has 2 MCP sessions open, all busy, which is its limit \(server\.maxSessions\): 2 holding answers its client has not received yet; none is closed for a new one/,
    );
    expect(ids().sort()).toEqual([a.transport.sessionId, b.transport.sessionId].sort());

    // b's client goes away for good while its resume is held; a comes back, gets its result, and leaves.
    const bId = b.transport.sessionId!;
    await leave(b);
    await callB.catch(() => {});
    await until(() => relay.held() === 1);
    relay.release();
    expect(textOf((await callA).result)).toBe("done after 3 steps");
    await until(() => info(a)?.owed === 0);
    await leave(a);
    await until(() => (info(a)?.streams ?? 0) === 0);

    // a, its answer delivered, makes room; b, whose answer is still owed, is held for the grace after its client was last seen.
    const listening = await connect(t.ep.mcpUrl, "newcomer-1");
    expect(ids().sort()).toEqual([bId, listening.transport.sessionId].sort());
    await until(() => info(listening)?.streams === 1);
    clock.advance(GRACE - 1);
    await expect(httpClient(t.ep.mcpUrl, t.token, "newcomer-2")).rejects.toThrow(
      /1 with a client listening on an open stream, 1 holding answers its client has not received yet/,
    );
    clock.advance(1);
    const late = await connect(t.ep.mcpUrl, "newcomer-2");
    expect(ids().sort()).toEqual([listening.transport.sessionId, late.transport.sessionId].sort());
  });
});
