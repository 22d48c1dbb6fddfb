import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { dirname, join } from "node:path";
import { createHttpServer, type HttpEndpoint } from "../../http/server";
import { memoryLogger } from "../../runtime";
import { inspectorFixture, type Fixture } from "../../../tests/helpers/inspectorFixture";
import { DEFAULT_STATIC_DIR, mountInspector, type WebInspector } from "./webRoutes";

it("serves the renderer built into dist/renderer at the checkout's root by default", () => {
  expect(DEFAULT_STATIC_DIR.replaceAll("\\", "/")).toMatch(/\/dist\/renderer$/);
  expect(existsSync(join(dirname(dirname(DEFAULT_STATIC_DIR)), "package.json"))).toBe(true);
});

function rawGet(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * POSTs to `path` declaring a 10 MB body, sends 64 KB of it and waits for an answer without ever
 * sending the rest: only an answer decided from the headers arrives (10 s is the generous bound).
 */
function answerBeforeBody(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path,
      headers: { host: `127.0.0.1:${port}`, "content-length": String(10 * 1024 * 1024), ...headers },
    });
    const giveUp = setTimeout(() => {
      req.destroy();
      reject(new Error("no answer within 10 s: the server waited for the body"));
    }, 10_000);
    req.on("response", (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => {
        clearTimeout(giveUp);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.on("error", () => {});
    req.write("[{},".repeat(16 * 1024));
  });
}

describe("web mode: login, API, events, exports and static files", () => {
  let f: Fixture;
  let http: HttpEndpoint;
  let web: WebInspector;
  let base: string;
  const token = "a".repeat(64);

  beforeEach(async () => {
    f = await inspectorFixture();
    const staticDir = join(f.home, "static");
    mkdirSync(join(staticDir, "assets"), { recursive: true });
    writeFileSync(join(staticDir, "index.html"), "<!doctype html><title>inspector</title>");
    writeFileSync(join(staticDir, "assets", "app-1.js"), "console.log(1)");
    writeFileSync(join(f.home, "secret.txt"), "do not serve");
    http = createHttpServer({ port: 0, token, logger: memoryLogger() });
    const { url } = await http.listen();
    base = url;
    web = mountInspector({ http, url }, { engine: f.engine, home: f.home, configPath: f.configPath, staticDir });
  });
  afterEach(async () => {
    web.close();
    await http.close();
    await f.close();
  });

  const login = async (): Promise<string> => {
    const r = await fetch(web.loginUrl(), { redirect: "manual" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/");
    const cookie = r.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    return cookie.split(";")[0]!;
  };
  const api = (op: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${base}/api/${op}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  it("swaps a one-time code for a session cookie, once", async () => {
    const url = web.loginUrl();
    expect((await fetch(url, { redirect: "manual" })).status).toBe(303);
    expect((await fetch(url, { redirect: "manual" })).status).toBe(403);
    expect((await fetch(`${base}/login?t=guess`, { redirect: "manual" })).status).toBe(403);
  });

  it("runs operations for the signed-in page or the bearer token, and nobody else", async () => {
    const cookie = await login();
    const origin = base;
    expect((await api("overview.get", {}, {})).status).toBe(401);
    expect((await api("overview.get", {}, { cookie })).status).toBe(403);
    const ok = await api("overview.get", {}, { cookie, origin });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await ok.json()) as unknown).toMatchObject({ ok: true, value: { store: { live: 2 } } });
    expect((await api("overview.get", {}, { cookie, origin: "http://evil.example" })).status).toBe(403);
    expect((await api("overview.get", {}, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await api("blobs.nope", {}, { authorization: `Bearer ${token}` })).status).toBe(404);
    const bad = await api("blobs.get", { id: "x" }, { authorization: `Bearer ${token}` });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: "bad_request", path: "id" } });
  });

  it("refuses an API call that is not signed in from its headers, without waiting for its body", async () => {
    const cookie = await login();
    const port = Number(new URL(base).port);
    const json = { "content-type": "application/json" };
    const nobody = await answerBeforeBody(port, "/api/overview.get", json);
    expect(nobody).toMatchObject({ status: 401, body: { ok: false, error: { code: "unauthorized", message: /^Not signed in/ } } });
    const wrongToken = await answerBeforeBody(port, "/api/overview.get", { ...json, authorization: `Bearer ${"b".repeat(64)}` });
    expect(wrongToken.status).toBe(401);
    // A signed-in page must still send its own Origin and a JSON body.
    expect((await answerBeforeBody(port, "/api/overview.get", { ...json, cookie })).status).toBe(403);
    const form = await answerBeforeBody(port, "/api/overview.get", { cookie, origin: base, "content-type": "text/plain" });
    expect(form).toMatchObject({ status: 403, body: { error: { code: "forbidden", message: /same Origin, JSON body/ } } });
    expect((await api("overview.get", {}, { cookie, origin: base })).status).toBe(200);
  });

  it("pushes engine events to a signed-in event stream", async () => {
    const cookie = await login();
    const ctrl = new AbortController();
    const res = await fetch(`${base}/api/events`, { headers: { cookie }, signal: ctrl.signal });
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    f.engine.setPinned(f.logId, true);
    let text = "";
    while (!text.includes("pinned")) text += new TextDecoder().decode((await reader.read()).value);
    const line = text.split("\n").find((l) => l.startsWith("data: {"))!;
    expect(JSON.parse(line.slice(6))).toEqual({ event: "engine", data: { type: "blob", blobId: f.logId, change: "pinned" } });
    ctrl.abort();
    expect((await fetch(`${base}/api/events`)).status).toBe(401);
  });

  it("downloads an export once, as plain text, masked for credential blobs", async () => {
    const cookie = await login();
    const ticket = (await (await api("blobs.export", { id: f.secretId }, { cookie, origin: base })).json()) as { value: { href: string } };
    const first = await fetch(base + ticket.value.href, { headers: { cookie } });
    expect(first.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(first.headers.get("content-disposition")).toMatch(/^attachment; filename="read_env-/);
    const body = await first.text();
    expect(body).toContain("[masked:github_token]");
    expect(body).not.toContain("ghp_");
    expect((await fetch(base + ticket.value.href, { headers: { cookie } })).status).toBe(404);
  });

  it("serves the built renderer with the CSP, and nothing outside it", async () => {
    const index = await fetch(`${base}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-security-policy")).toMatch(/default-src 'self'; script-src 'self'/);
    expect(index.headers.get("x-frame-options")).toBe("DENY");
    expect((await fetch(`${base}/assets/app-1.js`)).headers.get("content-type")).toMatch(/javascript/);
    const port = Number(new URL(base).port);
    expect((await rawGet(port, "/assets/..%2f..%2fsecret.txt")).status).toBe(404);
    expect((await rawGet(port, "/assets/../../secret.txt")).body).not.toContain("do not serve");
    expect((await rawGet(port, "/", { host: "evil.example" })).status).toBe(403);
  });
});
