/**
 * A browser session of the web inspector, on the endpoint `spillway serve` runs (real HTTP server,
 * /mcp, hooks and the inspector mounted as the CLI mounts them): the session cookie never turns into
 * the permanent bearer token, and signing out ends the session on the server.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { startEndpoint, type RunningEndpoint } from "../../endpoint/endpoint";
import { tokenPath } from "../../http/token";
import { inspectorFixture, type Fixture } from "../../../tests/helpers/inspectorFixture";
import type { OpName, Req } from "../api/contract";
import { OP_NAMES } from "../api/operations";
import { mountInspector, type WebInspector } from "./webRoutes";

/** One valid request per operation, so each runs past its schema (a new operation must be added here). */
function requests(f: Fixture, emptyDir: string): { [K in OpName]: Req<K> } {
  return {
    "overview.get": {},
    "savings.get": { group: "tool" },
    "blobs.list": {},
    "blobs.facets": {},
    "blobs.get": { id: f.logId },
    "blobs.content": { id: f.secretId, masked: false },
    "blobs.pin": { ids: [f.logId] },
    "blobs.unpin": { ids: [f.logId] },
    "blobs.purge": { ids: [f.logId] },
    "blobs.export": { id: f.secretId, masked: false },
    "fetch.run": { id: f.secretId, mode: "grep", args: { pattern: "." }, masked: false },
    "search.all": { query: "token" },
    "sessions.list": {},
    "sessions.timeline": { sessionId: "sess-a" },
    "calls.find": { sessionId: "sess-a" },
    "calls.get": { callId: 1 },
    "events.get": { eventId: 1 },
    "tools.list": {},
    "tools.run": { tool: "echo", args: {} },
    "endpoint.status": {},
    "endpoint.start": {},
    "endpoint.stop": {},
    "endpoint.token": {},
    "connect.snippets": {},
    "config.get": {},
    "config.validate": { config: {} },
    "config.set": { config: {} },
    "store.sweep": {},
    "history.agents": {},
    "history.import": { agent: "codex", path: emptyDir },
    "history.status": {},
    "history.cancel": {},
    "history.summary": {},
    "replay.run": {},
    "replay.export": { format: "json" },
  };
}

describe("a web inspector session and the bearer token", () => {
  let f: Fixture;
  let ep: RunningEndpoint;
  let web: WebInspector;
  let base: string;
  let token: string;

  beforeEach(async () => {
    f = await inspectorFixture();
    ep = await startEndpoint({ engine: f.engine, home: f.home, port: 0 });
    web = mountInspector(ep, { engine: f.engine, home: f.home, configPath: f.configPath });
    base = ep.url;
    token = ep.http.token;
  });
  afterEach(async () => {
    web.close();
    await ep.close();
    await f.close();
  });

  const login = async (): Promise<string> => {
    const r = await fetch(web.loginUrl(), { redirect: "manual" });
    return r.headers.get("set-cookie")!.split(";")[0]!;
  };
  /** What the inspector page sends: its cookie, its own Origin, a JSON body. */
  const asPage = (cookie: string, path: string, body: unknown = {}) =>
    fetch(base + path, {
      method: "POST",
      headers: { cookie, origin: base, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("a login link used twice says how to get a new one from the running server, and that way works", async () => {
    const link = web.loginUrl();
    expect((await fetch(link, { redirect: "manual" })).status).toBe(303);
    const again = await fetch(link, { redirect: "manual" });
    expect(again.status).toBe(403);
    const text = await again.text();
    expect(text).toContain(`$(cat ${join(f.home, "token")})`);
    const cmd = /curl -s -X POST -H "Authorization: Bearer [^"]+" (\S+)/.exec(text)!;
    expect(cmd[1]).toBe(`${base}/login/new`);
    const fresh = await fetch(cmd[1]!, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    const url = ((await fresh.json()) as { value: { url: string } }).value.url;
    expect((await fetch(url, { redirect: "manual" })).status).toBe(303);
  });

  it("no operation hands the token to a signed-in page; the page is told where the token file is", async () => {
    const cookie = await login();
    const reqs = requests(f, mkdtempSync(join(f.home, "empty-")));
    const answers: string[] = [];
    for (const op of OP_NAMES) {
      const r = await asPage(cookie, `/api/${op}`, reqs[op]);
      expect(r.status, op).not.toBe(401);
      answers.push(`${op}: ${await r.text()}`);
    }
    // The download link an export answered: its body is the blob, not the token either.
    const ticket = JSON.parse(answers.find((a) => a.startsWith("blobs.export: "))!.slice("blobs.export: ".length)) as {
      value: { href: string };
    };
    answers.push(await (await fetch(base + ticket.value.href, { headers: { cookie } })).text());
    expect(answers.filter((a) => a.includes(token))).toEqual([]);

    const refused = await asPage(cookie, "/api/endpoint.token");
    expect(await refused.json()).toMatchObject({
      ok: false,
      error: { code: "unsupported", message: expect.stringContaining(tokenPath(f.home)) },
    });
    const status = (await (await asPage(cookie, "/api/endpoint.status")).json()) as { value: { tokenFile: string; canCopyToken: boolean } };
    expect(status.value).toMatchObject({ tokenFile: tokenPath(f.home), canCopyToken: false });
    // Not through the bearer token either: web mode has no operation that returns it.
    const bearer = await fetch(`${base}/api/endpoint.token`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(JSON.stringify(await bearer.json())).not.toContain(token);
  });

  it("signing out ends the session on the server: the old cookie gets 401 everywhere, and its event stream ends", async () => {
    const cookie = await login();
    const other = await login();
    const events = await fetch(`${base}/api/events`, { headers: { cookie } });
    expect(events.status).toBe(200);
    const stream = events.body!.getReader();
    expect((await asPage(cookie, "/api/overview.get")).status).toBe(200);

    const out = await asPage(cookie, "/logout");
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ ok: true, value: { signedOut: true } });
    expect(out.headers.get("set-cookie")).toMatch(/^spillway_session_\d+=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0$/);

    // The same cookie, sent again as a copy of it would be: refused by every signed-in route.
    const api = await asPage(cookie, "/api/overview.get");
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ ok: false, error: { code: "unauthorized" } });
    expect((await fetch(`${base}/api/events`, { headers: { cookie } })).status).toBe(401);
    expect((await asPage(cookie, "/logout")).status).toBe(401);
    // The stream opened before signing out was ended by the server.
    let done = false;
    while (!done) done = (await stream.read()).done;
    // Another browser's session is its own.
    expect((await asPage(other, "/api/overview.get")).status).toBe(200);
  });

  it("signs out only from the inspector page itself: another site's form or script cannot", async () => {
    const cookie = await login();
    const post = (headers: Record<string, string>, body = "{}") =>
      fetch(`${base}/logout`, { method: "POST", headers: { cookie, ...headers }, body });
    expect((await post({ origin: "http://evil.example", "content-type": "application/json" })).status).toBe(403);
    expect((await post({ origin: base, "content-type": "application/x-www-form-urlencoded" }, "a=1")).status).toBe(403);
    expect((await post({ "content-type": "application/json" })).status).toBe(403);
    // A link or an image pointing at /logout is a GET: it signs nobody out.
    expect((await fetch(`${base}/logout`, { headers: { cookie } })).status).not.toBe(200);
    expect((await asPage(cookie, "/api/overview.get")).status).toBe(200);
  });
});
