/**
 * Resumable streams on `spillway serve` /mcp, with the real SDK client over real HTTP: a stream
 * dropped mid-call (the connection cut under the client) resumes with Last-Event-ID and loses no
 * progress notification and not the result; with server.streamHoldMs the server closes a long
 * call's stream itself and the client polls; an event id of another session is refused, and so
 * is one whose events were dropped past server.resumeBufferKB.
 */
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { slowCall, startRelay, steps } from "./helpers/relay";
import { httpClient, textOf, upstream } from "./helpers/setup";

interface CuttingProxy {
  url: string;
  /** Last-Event-ID of every GET that resumed a stream, in order. */
  resumes: string[];
  close(): Promise<void>;
}

/**
 * A loopback relay to the endpoint that cuts the connection of the first tools/call whose body
 * contains `cutMarker` right after the first progress notification went through: the client sees
 * a network error in the middle of its call, as on a real dropped connection.
 */
async function cuttingProxy(targetPort: number, cutMarker: string | null): Promise<CuttingProxy> {
  const resumes: string[] = [];
  let cut = false;
  const relay = await startRelay(targetPort, (req, _res, body, forward) => {
    const resume = req.headers["last-event-id"];
    if (req.method === "GET" && typeof resume === "string") resumes.push(resume);
    const cutThis = !cut && cutMarker !== null && body.toString("utf8").includes(cutMarker);
    if (cutThis) cut = true;
    forward((c) => cutThis && c.toString("utf8").includes("notifications/progress"));
  });
  return { url: relay.url, resumes, close: relay.close };
}

/** The id of the priming event (checked to come first, with a retry field) of a tools/call POSTed by hand in `session`. */
async function primingId(t: TestEndpoint, session: string): Promise<string> {
  const res = await fetch(t.ep.mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${t.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 77, method: "tools/call", params: { name: "pid", arguments: {} } }),
  });
  const text = await res.text();
  // The priming event comes first: an id, the retry advice, empty data.
  const id = /^id: (.+)\nretry: \d+\ndata: \n\n/.exec(text)?.[1];
  if (!id) throw new Error(`no priming event first in: ${text.slice(0, 300)}`);
  return id;
}

async function resumeRaw(t: TestEndpoint, session: string, lastEventId: string): Promise<{ status: number; body: string }> {
  const ctl = new AbortController();
  const res = await fetch(t.ep.mcpUrl, {
    method: "GET",
    signal: ctl.signal,
    headers: {
      authorization: `Bearer ${t.token}`,
      accept: "text/event-stream",
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
      "last-event-id": lastEventId,
    },
  });
  if (res.ok) {
    // A resumed stream stays open for what comes next: read the replay, then hang up.
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    ctl.abort();
    return { status: res.status, body: new TextDecoder().decode(value) };
  }
  return { status: res.status, body: await res.text() };
}

describe("resumable MCP streams over HTTP", () => {
  let t: TestEndpoint;

  beforeAll(async () => {
    t = await startTestEndpoint({ server: { sseRetryMs: 20 }, mcpServers: { fx: upstream.fixture() } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a connection cut mid-call resumes with Last-Event-ID: every progress notification and the result arrive", async () => {
    const proxy = await cuttingProxy(t.ep.port, '"steps":6');
    const { client } = await httpClient(proxy.url, t.token, "resume-after-cut");
    try {
      const { result, progress } = await slowCall(client, 6);
      expect(textOf(result)).toBe("done after 6 steps");
      expect(progress).toEqual(steps(6));
      // It really was cut and resumed, from an event of this session's own stream.
      expect(proxy.resumes.length).toBeGreaterThanOrEqual(1);
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it("refuses to replay another session's events into this one, and replays them in their own", async () => {
    const a = await httpClient(t.ep.mcpUrl, t.token, "owner");
    const b = await httpClient(t.ep.mcpUrl, t.token, "intruder");
    try {
      const id = await primingId(t, a.transport.sessionId!);
      const foreign = await resumeRaw(t, b.transport.sessionId!, id);
      expect(foreign.status).toBe(400);
      expect(JSON.parse(foreign.body).error.message).toMatch(/is not an event of session .*; a stream resumes only in its own session/);
      expect(foreign.body).not.toContain("result");
      const own = await resumeRaw(t, a.transport.sessionId!, id);
      expect(own.status).toBe(200);
      expect(own.body).toContain('"id":77');
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });
});

describe("polling: the server closes a long call's stream and the client comes back", () => {
  let t: TestEndpoint;

  beforeAll(async () => {
    t = await startTestEndpoint({ server: { sseRetryMs: 10, streamHoldMs: 100 }, mcpServers: { fx: upstream.fixture() } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("loses nothing across the closes", async () => {
    const proxy = await cuttingProxy(t.ep.port, null);
    const { client } = await httpClient(proxy.url, t.token, "poller");
    try {
      const { result, progress } = await slowCall(client, 8);
      expect(textOf(result)).toBe("done after 8 steps");
      expect(progress).toEqual(steps(8));
      expect(proxy.resumes.length).toBeGreaterThanOrEqual(1);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});

describe("past the resume buffer", () => {
  let t: TestEndpoint;

  beforeAll(async () => {
    t = await startTestEndpoint({ server: { resumeBufferKB: 16 }, mcpServers: { fx: upstream.fixture() } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a resume from a dropped event with a sentence instead of a stream with a hole", async () => {
    const a = await httpClient(t.ep.mcpUrl, t.token, "overflow");
    try {
      const session = a.transport.sessionId!;
      const first = await primingId(t, session);
      // About 27 KB of results (each under the rescue threshold, none a repeat) push the first events out.
      for (let i = 0; i < 4; i++) await a.client.callTool({ name: "big_log", arguments: { lines: 150, seed: `s${i}` } });
      await primingId(t, session);
      const gone = await resumeRaw(t, session, first);
      expect(gone.status).toBe(410);
      expect(JSON.parse(gone.body).error.message).toMatch(/are no longer kept .*server\.resumeBufferKB.*send the request again/);
    } finally {
      await a.client.close();
    }
  });
});
