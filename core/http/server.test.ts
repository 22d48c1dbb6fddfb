import { request } from "node:http";
import { connect } from "node:net";
import { ErrorCode } from "../errors";
import { memoryLogger } from "../runtime";
import { createHttpServer, type HttpEndpoint } from "./server";
import { sendOk } from "./respond";
import { stall } from "../../tests/helpers/stalledRequest";

const TOKEN = "f".repeat(64);

function send(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; body: any; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method: opts.method ?? "GET", path: opts.path, headers: { host: `127.0.0.1:${port}`, ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null, headers: res.headers });
        });
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** Sends `declared` bytes of body as fast as the socket takes them; stops when the server closes the connection. */
function uploadUntilClosed(
  port: number,
  path: string,
  headers: Record<string, string>,
  declared: number,
): Promise<{ answer: string; written: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const head = Object.entries({
      host: `127.0.0.1:${port}`,
      "content-type": "application/json",
      "content-length": String(declared),
      ...headers,
    })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let answer = "";
    let written = 0;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server was still reading after ${written} bytes`));
    }, 20_000);
    const pump = () => {
      while (!socket.destroyed && written < declared && socket.write(chunk)) written += chunk.length;
    };
    socket.on("data", (c: Buffer) => (answer += c.toString("utf8")));
    socket.on("drain", () => {
      written += chunk.length;
      pump();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(giveUp);
      resolve({ answer, written });
    });
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
    pump();
  });
}

describe("loopback HTTP server", () => {
  let http: HttpEndpoint;
  let port: number;
  const auth = { authorization: `Bearer ${TOKEN}` };
  beforeAll(async () => {
    http = createHttpServer({ port: 0, token: TOKEN, logger: memoryLogger(), maxBodyBytes: 1024 });
    http.addRoute("POST", "/echo", (_req, res, { body }) => sendOk(res, body));
    http.addRoute("GET", "/open", (_req, res) => sendOk(res, "public"), { auth: false });
    http.addRoute("GET", "/static/*", (_req, res, { url }) => sendOk(res, url.pathname));
    http.addRoute("GET", "/static/exact", (_req, res) => sendOk(res, "exact"));
    http.addRoute("POST", "/guarded", (_req, res, { body }) => sendOk(res, body), {
      auth: (req) =>
        req.headers["content-type"] === "text/plain" ? { code: ErrorCode.Forbidden, message: "text/plain bodies are refused." } : null,
    });
    port = (await http.listen()).port;
  });
  afterAll(() => http.close());

  it("answers a request with the token", async () => {
    expect(await send(port, { method: "POST", path: "/echo", headers: auth, body: '{"a":1}' })).toMatchObject({
      status: 200,
      body: { ok: true, value: { a: 1 } },
    });
  });

  it("rejects a missing or wrong token with 401 and a JSON error", async () => {
    const none = await send(port, { method: "POST", path: "/echo", body: "{}" });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ ok: false, error: { code: "unauthorized" } });
    expect((await send(port, { path: "/static/x", headers: { authorization: `Bearer ${"0".repeat(64)}` } })).status).toBe(401);
  });

  it("rejects a foreign Origin and a foreign Host with 403, even with the token", async () => {
    const origin = await send(port, { method: "POST", path: "/echo", headers: { ...auth, origin: "http://evil.example" }, body: "{}" });
    expect(origin).toMatchObject({
      status: 403,
      body: { error: { code: "forbidden", message: expect.stringMatching(/^Origin "http:\/\/evil.example" is not allowed/) } },
    });
    expect((await send(port, { path: "/open", headers: { host: `attacker.example:${port}` } })).status).toBe(403);
    expect((await send(port, { path: "/open", headers: { origin: `http://localhost:${port}` } })).status).toBe(200);
  });

  it("refuses a body over the limit with 413 and bad JSON with 400", async () => {
    const big = await send(port, { method: "POST", path: "/echo", headers: auth, body: JSON.stringify({ s: "x".repeat(2048) }) });
    expect(big).toMatchObject({ status: 413, body: { error: { code: "too_large" } } });
    expect((await send(port, { method: "POST", path: "/echo", headers: auth, body: "{" })).status).toBe(400);
  });

  it("answers a refused upload at once and closes its connection after reading little of it", async () => {
    // 200 MB declared: without a token (401), with a foreign Origin (403), over the limit (413).
    const cases: [Record<string, string>, number][] = [
      [{}, 401],
      [{ ...auth, origin: "http://evil.example" }, 403],
      [auth, 413],
    ];
    for (const [headers, status] of cases) {
      const r = await uploadUntilClosed(port, "/echo", headers, 200 * 1024 * 1024);
      expect(r.answer).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(r.answer.toLowerCase()).toContain("connection: close");
      // The server stopped reading: the client could not push more than its 1 MB plus the sockets' buffers.
      expect(r.written).toBeLessThan(32 * 1024 * 1024);
    }
  });

  it("routes exact paths before prefixes, and says 404 or 405 otherwise", async () => {
    expect((await send(port, { path: "/static/exact", headers: auth })).body.value).toBe("exact");
    expect((await send(port, { path: "/static/a/b", headers: auth })).body.value).toBe("/static/a/b");
    expect((await send(port, { path: "/nothing", headers: auth })).status).toBe(404);
    const wrong = await send(port, { method: "DELETE", path: "/echo", headers: auth });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("POST");
    expect(wrong.body.error.message).toBe("DELETE is not supported on /echo: use POST.");
  });

  it("marks every answer nosniff: a route's, the guard's, a 404 and a 405", async () => {
    const answers = [
      await send(port, { path: "/open" }),
      await send(port, { method: "POST", path: "/echo", body: "{}" }),
      await send(port, { path: "/open", headers: { host: "evil.example" } }),
      await send(port, { path: "/nothing", headers: auth }),
      await send(port, { method: "PUT", path: "/open", headers: auth }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 403, 404, 405]);
    for (const a of answers) expect(a.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("refuses a route's own rule from the headers, before the body arrives", async () => {
    const body = await answerWithoutBody(port, "/guarded", { "content-type": "text/plain" });
    expect(body).toMatch(/^HTTP\/1\.1 403 /);
    expect(body).toContain("text/plain bodies are refused");
  });
});

/** Writes a raw request with `Content-Length: 10 MB`, sends 64 KB of it and never the rest; resolves with what the server wrote. */
function answerWithoutBody(port: number, path: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    const head = Object.entries({ host: `127.0.0.1:${port}`, "content-length": String(10 * 1024 * 1024), ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n` + "[{},".repeat(16 * 1024));
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 10 s while the body was unsent; got: ${JSON.stringify(got)}`));
    }, 10_000);
    socket.on("data", (c: Buffer) => {
      got += c.toString("utf8");
      // The whole answer is in once its JSON body closes.
      if (/\r\n\r\n\{.*\}$/s.test(got)) {
        clearTimeout(giveUp);
        socket.destroy();
        resolve(got);
      }
    });
    socket.on("error", reject);
  });
}

describe("loopback HTTP server: slow clients (a 300 ms request timeout)", () => {
  const TIMEOUT_MS = 300;
  let http: HttpEndpoint;
  let port: number;
  const logger = memoryLogger();
  const auth = { authorization: `Bearer ${TOKEN}` };
  const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
  beforeAll(async () => {
    http = createHttpServer({ port: 0, token: TOKEN, logger, requestTimeoutMs: TIMEOUT_MS, headersTimeoutMs: 200 });
    http.addRoute("POST", "/echo", (_req, res, { body }) => sendOk(res, body));
    // A tool call that takes a while to answer, and a stream that stays open.
    http.addRoute("POST", "/slow", async (_req, res, { body }) => {
      await later(TIMEOUT_MS * 5);
      sendOk(res, body);
    });
    http.addRoute("GET", "/stream", async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      await later(TIMEOUT_MS * 5);
      res.end("data: last\n\n");
    });
    port = (await http.listen()).port;
  });
  afterAll(() => http.close());

  it("drops a client that trickles its body, with 408", async () => {
    const head = `POST /echo HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: ${auth.authorization}\r\ncontent-length: 100000\r\n\r\n`;
    expect(await stall(port, head + "[")).toMatch(/^HTTP\/1\.1 408 /);
    // The client's stall, not a failure of Spillway's: logged as information, not as an error.
    await vi.waitFor(() => expect(logger.entries.map((e) => e.msg)).toContain("http request ended before its body was received"));
    expect(logger.entries.filter((e) => e.level === "error")).toEqual([]);
  });

  it("drops a client that never finishes its headers", async () => {
    expect(await stall(port, `GET /echo HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`)).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("gives an answer and a stream all the time they take once the request is in", async () => {
    const slow = await send(port, { method: "POST", path: "/slow", headers: auth, body: '{"a":1}' });
    expect(slow).toMatchObject({ status: 200, body: { ok: true, value: { a: 1 } } });
    const stream = await fetch(`http://127.0.0.1:${port}/stream`, { headers: auth });
    expect(await stream.text()).toBe("data: first\n\ndata: last\n\n");
  });
});
