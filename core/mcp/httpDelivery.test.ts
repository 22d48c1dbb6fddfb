import { createServer, type ServerResponse } from "node:http";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { DeliveryLedger, DeliveryTransport, sseEventId, watchSentEvents } from "./httpDelivery";
import { SessionEventStore } from "./httpEventStore";

const answer = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: { content: [] } });
const progress: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } };

describe("DeliveryLedger", () => {
  it("owes a request from its arrival until its answer's event was sent", () => {
    const l = new DeliveryLedger();
    l.asked(1);
    l.asked("two");
    expect(l.size).toEqual({ owed: 2, ready: 0 });
    l.answered(1, 7, "s1");
    expect(l.size).toEqual({ owed: 2, ready: 1 });
    l.sent(6);
    expect(l.size.owed).toBe(2);
    l.sent(7);
    expect(l.size).toEqual({ owed: 1, ready: 0 });
    l.cancelled("two");
    expect(l.size).toEqual({ owed: 0, ready: 0 });
  });

  it("takes a resume from an event at or past the answer, on the answer's stream, as proof the client has it", () => {
    const l = new DeliveryLedger();
    for (const id of [1, 2, 3]) l.asked(id);
    l.answered(1, 5, "a");
    l.answered(2, 9, "a");
    l.answered(3, 4, "b");
    l.resumed("a", 5);
    expect(l.size).toEqual({ owed: 2, ready: 2 });
    l.resumed("a", 8); // the client has up to 8 on stream a: the answer at 9 is still to come
    expect(l.size.owed).toBe(2);
    l.resumed("a", 12);
    expect(l.size).toEqual({ owed: 1, ready: 1 });
  });

  it("owes nothing for an answer the resume buffer dropped, nor for answers to requests it never saw", () => {
    const l = new DeliveryLedger();
    l.answered(42, 1, "a");
    expect(l.size.owed).toBe(0);
    l.asked(1);
    l.answered(1, 2, "a");
    l.dropped(2);
    expect(l.size).toEqual({ owed: 0, ready: 0 });
  });
});

describe("SessionEventStore with a ledger", () => {
  it("reports answers stored, events sent, resumes and drops", async () => {
    const l = new DeliveryLedger();
    const s = new SessionEventStore({ maxChars: 1 << 20, maxEvents: 3 }, l);
    l.asked(1);
    l.asked(2);
    const priming = await s.storeEvent("A", {} as JSONRPCMessage);
    await s.storeEvent("A", progress);
    const a1 = await s.storeEvent("A", answer(1));
    expect(l.size).toEqual({ owed: 2, ready: 1 });
    // Another session's id, or the priming event, delivers nothing.
    const other = new SessionEventStore({ maxChars: 1 << 20, maxEvents: 3 });
    s.sent(await other.storeEvent("A", answer(1)));
    s.sent(priming);
    expect(l.size.ready).toBe(1);
    await s.replayEventsAfter(a1, { send: async () => {} });
    expect(l.size).toEqual({ owed: 1, ready: 0 });
    await s.storeEvent("B", answer(2));
    expect(l.size.ready).toBe(1);
    // Three more events push answer 2 out of the buffer: it can no longer be delivered.
    for (let i = 0; i < 3; i++) await s.storeEvent("B", progress);
    expect(l.size).toEqual({ owed: 0, ready: 0 });
  });
});

describe("DeliveryTransport", () => {
  it("notes each request the SDK hands on, and forgets one the client cancelled", async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const l = new DeliveryLedger();
    const t = new DeliveryTransport(server, l);
    const got: JSONRPCMessage[] = [];
    t.onmessage = (m) => void got.push(m);
    await t.start();
    await client.start();
    await client.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: {} } });
    await client.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "user" } });
    await client.send({ jsonrpc: "2.0", id: 9, result: {} }); // an answer to a server request: owed nothing
    expect(got).toHaveLength(4);
    expect(l.size.owed).toBe(1);
    await t.close();
  });
});

describe("sseEventId", () => {
  it("reads the id of the event a chunk starts, whatever comes first, and nothing from a comment or the data", () => {
    expect(sseEventId(Buffer.from('event: message\nid: ab12-7\ndata: {"x":1}\n\n'))).toBe("ab12-7");
    expect(sseEventId("id: ab12-1\nretry: 1000\ndata: \n\n")).toBe("ab12-1");
    expect(sseEventId(": keepalive\n\n")).toBeNull();
    expect(sseEventId('data: {"text":"\\nid: fake-1\\n"}\n\n')).toBeNull();
    expect(sseEventId(new Uint8Array([1, 2, 3]))).toBeNull();
    expect(sseEventId(42)).toBeNull();
  });
});

describe("watchSentEvents", () => {
  it("reports each event once it was flushed onto a live connection, and none written after the connection is gone", async () => {
    const sent: string[] = [];
    let opened!: (r: ServerResponse) => void;
    const response = new Promise<ServerResponse>((r) => (opened = r));
    const server = createServer((_req, r) => {
      watchSentEvents(r, (id) => sent.push(id));
      r.writeHead(200, { "content-type": "text/event-stream" });
      r.flushHeaders();
      opened(r);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const ctl = new AbortController();
      const reply = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/`, { signal: ctl.signal });
      const res = await response;
      await new Promise<void>((r) => res.write("event: message\nid: s-1\ndata: {}\n\n", () => r()));
      expect(sent).toEqual(["s-1"]);
      res.write(": keepalive\n\n");
      expect(new TextDecoder().decode((await reply.body!.getReader().read()).value)).toContain("id: s-1");
      // The client hangs up: what is written afterwards never reaches it and is not reported.
      const closed = new Promise<void>((r) => res.once("close", () => r()));
      ctl.abort();
      await closed;
      const err = await new Promise<unknown>((r) => res.write("event: message\nid: s-2\ndata: {}\n\n", (e) => r(e)));
      expect(err).toBeInstanceOf(Error);
      expect(sent).toEqual(["s-1"]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
