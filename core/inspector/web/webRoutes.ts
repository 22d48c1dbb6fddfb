/**
 * Web mode: the inspector on the `spillway serve` HTTP server. `/login` swaps a one-time code
 * for a session cookie, `/logout` ends that session, `/api/<op>` runs a contract operation,
 * `/api/events` streams pushed events, `/api/export/<ticket>` downloads a blob, and `/` serves
 * the built renderer.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { fileURLToPath } from "node:url";
import type { Engine } from "../../engine/engineApi";
import { ErrorCode, errorBodyOf } from "../../errors";
import { allowedOrigins } from "../../http/guard";
import { tokenPath } from "../../http/token";
import { sendError, sendJson, sendOk } from "../../http/respond";
import type { HttpEndpoint, RouteAuth } from "../../http/server";
import type { RunningEndpoint } from "../../endpoint/endpoint";
import { createHandRunner } from "../../mcp/handRunner";
import { BlobViews } from "../handlers/blobViews";
import { createDispatch } from "../handlers/dispatch";
import { createHandlers } from "../handlers/handlers";
import type { EndpointControl, InspectorHost } from "../handlers/host";
import { WebAuth } from "./webAuth";
import { webConnectSnippets, webEndpointControl } from "./webEndpoint";
import { createEventHub } from "./webEvents";
import { SECURITY_HEADERS, sendStatic } from "./webStatic";

export const DEFAULT_STATIC_DIR = fileURLToPath(new URL("../../../dist/renderer", import.meta.url));
/** How long an export link works. */
const EXPORT_TTL_MS = 60_000;

export interface WebInspectorOptions {
  engine: Engine;
  home: string;
  configPath: string;
  /** The built renderer; defaults to dist/renderer of this checkout. */
  staticDir?: string;
  /** Overrides the endpoint status source (tests). */
  endpoint?: EndpointControl;
}

export interface WebInspector {
  /** A fresh one-time login link (what `spillway serve` prints). */
  loginUrl(): string;
  close(): void;
}

/** Mounts the inspector on a running endpoint's HTTP server. */
export function mountInspector(
  running: Pick<RunningEndpoint, "http" | "url"> & Partial<RunningEndpoint>,
  opts: WebInspectorOptions,
): WebInspector {
  const http: HttpEndpoint = running.http;
  const auth = new WebAuth(http.token, http.port, () => opts.engine.clock.now());
  const views = new BlobViews(opts.engine);
  const exports = new Map<string, { id: string; masked: boolean; filename: string; until: number }>();
  const endpoint = opts.endpoint ?? webEndpointControl(running, opts.home, opts.engine.clock);
  const host: InspectorHost = {
    engine: opts.engine,
    configPath: opts.configPath,
    endpoint,
    connectSnippets: () => webConnectSnippets(opts.home, http.port, opts.configPath),
    exportBlob(id, masked, filename) {
      const ticket = randomBytes(18).toString("base64url");
      exports.set(ticket, { id, masked, filename, until: host.engine.clock.now() + EXPORT_TTL_MS });
      return { kind: "download", href: `/api/export/${ticket}`, path: null, filename };
    },
  };
  const runner = running.upstreams ? createHandRunner(opts.engine, running.upstreams) : null;
  if (runner) host.tools = runner;
  const dispatch = createDispatch(createHandlers(host, views), opts.engine.logger);
  const hub = createEventHub(opts.engine, SECURITY_HEADERS);
  const stopEndpointEvents = endpoint.onChange?.((s) => hub.push({ event: "endpoint", data: s }));
  const staticDir = opts.staticDir ?? DEFAULT_STATIC_DIR;
  const origins = allowedOrigins(http.port);

  /**
   * Cookie or bearer; a cookie-authenticated POST must also come from this server's own page. The
   * router applies it from the headers before reading the body, so a caller without either cannot
   * make the server buffer and parse up to 64 MB of JSON first.
   */
  const signedIn =
    (changesState: boolean): RouteAuth =>
    (req: IncomingMessage) => {
      const how = auth.check(req);
      if (!how) {
        return {
          code: ErrorCode.Unauthorized,
          message: "Not signed in: open the login link that `spillway serve` printed, or send the bearer token.",
        };
      }
      if (how === "cookie" && changesState) {
        const origin = (req.headers.origin ?? "").toLowerCase();
        const json = (req.headers["content-type"] ?? "").toLowerCase().startsWith("application/json");
        if (!origins.includes(origin) || !json) {
          return {
            code: ErrorCode.Forbidden,
            message: "Inspector calls must come from the inspector page itself (same Origin, JSON body).",
          };
        }
      }
      return null;
    };

  http.addRoute(
    "GET",
    "/login",
    (req, res, { url }) => {
      const sid = auth.redeem(url.searchParams.get("t"));
      if (!sid) {
        res.writeHead(403, { "content-type": "text/plain; charset=utf-8", ...SECURITY_HEADERS });
        res.end(
          "This login link was already used or has expired. Ask the running server for a new one:\n" +
            `  curl -s -X POST -H "Authorization: Bearer $(cat ${tokenPath(opts.home)})" http://127.0.0.1:${http.port}/login/new\n` +
            "(or restart `spillway serve`, which prints one).\n",
        );
        return;
      }
      // 303 to a clean URL, so the spent code does not stay in the address bar or history.
      res.writeHead(303, { location: "/", "set-cookie": auth.setCookie(sid), "cache-control": "no-store", ...SECURITY_HEADERS });
      res.end();
    },
    { auth: false },
  );

  // Scripts holding the bearer token (and the e2e suite) mint a fresh login link here.
  http.addRoute("POST", "/login/new", (_req, res) => sendOk(res, { url: loginUrl() }));

  // A POST with the same guard as the operations: another site cannot sign the page out either.
  http.addRoute(
    "POST",
    "/logout",
    (req, res) => {
      const sid = auth.sessionOf(req);
      const signedOut = sid !== null && auth.end(sid);
      hub.recheck();
      sendJson(res, 200, { ok: true, value: { signedOut } }, { "set-cookie": auth.clearCookie() });
    },
    { auth: signedIn(true) },
  );

  http.addRoute(
    "GET",
    "/api/events",
    (req, res) => {
      const sid = auth.sessionOf(req);
      // A page's stream lasts as long as its session; a script's (bearer) as long as it reads.
      hub.attach(res, sid ? () => auth.live(sid) : undefined);
    },
    { auth: signedIn(false) },
  );

  http.addRoute(
    "GET",
    "/api/export/*",
    (_req, res, { url }) => {
      const ticket = url.pathname.slice("/api/export/".length);
      const t = exports.get(ticket);
      exports.delete(ticket);
      if (!t || t.until < host.engine.clock.now())
        return sendError(res, ErrorCode.NotFound, "This export link was used or has expired; export again.");
      let text: string;
      try {
        text = views.view(t.id, t.masked).view.text;
      } catch (err) {
        const e = errorBodyOf(err, host.engine.logger, "export");
        return sendError(res, e.code, e.message);
      }
      const body = Buffer.from(text, "utf8");
      res.writeHead(200, {
        // Never text/html: blob content is untrusted and must not render in this origin.
        "content-type": "text/plain; charset=utf-8",
        "content-length": body.length,
        "content-disposition": `attachment; filename="${t.filename.replace(/[^\w.-]+/g, "_")}"`,
        "cache-control": "no-store",
        ...SECURITY_HEADERS,
      });
      res.end(body);
    },
    { auth: signedIn(false) },
  );

  http.addRoute(
    "POST",
    "/api/*",
    async (_req, res, { url, body }) => {
      const op = url.pathname.slice("/api/".length);
      const result = await dispatch(op, body);
      if (result.ok && op === "config.set") hub.push({ event: "config", data: { savedAt: host.engine.clock.now() } });
      const status = result.ok ? 200 : result.error.code === "unknown_operation" ? 404 : result.error.code === "bad_request" ? 400 : 200;
      sendJson(res, status, result);
    },
    { auth: signedIn(true) },
  );

  for (const path of ["/", "/index.html", "/assets/*", "/favicon.ico"]) {
    http.addRoute("GET", path, (_req, res, { url }) => sendStatic(res, staticDir, url.pathname), { auth: false });
  }

  function loginUrl(): string {
    return `${running.url}/login?t=${auth.newLoginCode()}`;
  }

  http.onClose(async () => {
    stopEndpointEvents?.();
    hub.close();
    await runner?.close();
  });

  return {
    loginUrl,
    close() {
      stopEndpointEvents?.();
      hub.close();
    },
  };
}
