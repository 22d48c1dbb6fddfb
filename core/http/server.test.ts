import { request } from "node:http";
import { memoryLogger } from "../runtime";
import { createHttpServer, type HttpEndpoint } from "./server";
import { sendOk } from "./respond";

const TOKEN = "f".repeat(64);

function send(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method: opts.method ?? "GET", path: opts.path, headers: { host: `127.0.0.1:${port}`, ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null });
        });
      },
    );
    req.on("error", reject);
    req.end(opts.body);
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
    port = (await http.listen()).port;
  });
  afterAll(() => http.close());

  it("answers a request with the token", async () => {
    expect(await send(port, { method: "POST", path: "/echo", headers: auth, body: '{"a":1}' })).toEqual({
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

  it("routes exact paths before prefixes, and says 404 or 405 otherwise", async () => {
    expect((await send(port, { path: "/static/exact", headers: auth })).body.value).toBe("exact");
    expect((await send(port, { path: "/static/a/b", headers: auth })).body.value).toBe("/static/a/b");
    expect((await send(port, { path: "/nothing", headers: auth })).status).toBe(404);
    expect((await send(port, { method: "DELETE", path: "/echo", headers: auth })).status).toBe(405);
  });
});
