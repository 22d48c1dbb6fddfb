/**
 * The loopback HTTP server behind `spillway serve`: guards every request (Host, Origin, token) and
 * dispatches to a route table that other modules extend (`/mcp`, `/hooks/*`, the inspector's
 * `/api/*` and static files) without editing this file. Who may call a route is decided from the
 * headers, before any body is read: an unauthorized client cannot make the server buffer or parse.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describeError, ErrorCode, SpillwayError } from "../errors";
import type { Logger } from "../runtime";
import { checkRequest, type GuardRejection } from "./guard";
import { discardBody, readJson, sendError } from "./respond";

export interface RouteContext {
  url: URL;
  /** The parsed JSON body for routes that read one; undefined otherwise. */
  body: unknown;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, ctx: RouteContext) => Promise<void> | void;

/** A route's own access rule, decided from the request's headers alone; null lets it through. */
export type RouteAuth = (req: IncomingMessage) => GuardRejection | null;

export interface RouteOptions {
  /**
   * Require the bearer token (default true), or apply the route's own rule instead (the inspector's
   * cookie sessions). Either runs before the body is read. Host and Origin are checked for every route.
   */
  auth?: boolean | RouteAuth;
  /** Parse a JSON body before the handler runs (default: true for POST, PUT, PATCH). */
  json?: boolean;
}

interface Route {
  methods: Set<string>;
  path: string;
  prefix: boolean;
  handler: RouteHandler;
  opts: RouteOptions;
}

export interface HttpServerOptions {
  /** 0 picks a free port (tests). */
  port: number;
  token: string;
  logger: Logger;
  /** Request bodies over this size get a 413 (default 64 MB). */
  maxBodyBytes?: number;
  /** How long a client may take to send a whole request, headers and body (default 60 s); answers are not limited. */
  requestTimeoutMs?: number;
  /** How long a client may take to send the headers (default 20 s, at most `requestTimeoutMs`). */
  headersTimeoutMs?: number;
}

export interface HttpEndpoint {
  /** `path` is exact, or a prefix when it ends with `/*`. Exact routes win over prefixes, longer prefixes over shorter. */
  addRoute(method: string | string[], path: string, handler: RouteHandler, opts?: RouteOptions): void;
  /** Runs when the server closes (before connections are dropped), e.g. to end MCP sessions. */
  onClose(fn: () => Promise<void> | void): void;
  listen(): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
  /** The bound port (after listen). */
  readonly port: number;
  readonly token: string;
  readonly server: Server;
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
/**
 * Node's default (300 s) let a client trickling a body hold a connection and its handler for five
 * minutes. A 64 MB body over loopback takes well under a second, so 60 s only cuts off stalled
 * senders. Node stops this clock once the request is received: SSE streams and slow tool calls
 * answer for as long as they need.
 */
const REQUEST_TIMEOUT_MS = 60_000;
const HEADERS_TIMEOUT_MS = 20_000;

export function createHttpServer(opts: HttpServerOptions): HttpEndpoint {
  const routes: Route[] = [];
  const closers: (() => Promise<void> | void)[] = [];
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let port = opts.port;

  /** The route for a request, and the methods its path takes (for a 405's Allow). */
  const find = (method: string, path: string): { route: Route | null; allowed: Set<string> } => {
    let best: Route | null = null;
    const allowed = new Set<string>();
    for (const r of routes) {
      const hit = r.prefix ? path === r.path || path.startsWith(r.path.endsWith("/") ? r.path : r.path + "/") : path === r.path;
      if (!hit) continue;
      for (const m of r.methods) allowed.add(m);
      if (!r.methods.has(method)) continue;
      if (!best || (best.prefix && !r.prefix) || (best.prefix && r.prefix && r.path.length > best.path.length)) best = r;
    }
    return { route: best, allowed };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    const { route, allowed } = find(method, url.pathname);
    const auth = route?.opts.auth ?? true;
    const rejected = checkRequest(req, { port, token: opts.token }, auth === true) ?? (typeof auth === "function" ? auth(req) : null);
    if (rejected) {
      // The answer does not wait for the body, nothing of it is kept, and little of it is read.
      discardBody(req, res);
      const headers: Record<string, string> =
        rejected.code === ErrorCode.Unauthorized ? { "www-authenticate": 'Bearer realm="spillway"' } : {};
      sendError(res, rejected.code, rejected.message, headers);
      return;
    }
    if (!route) {
      discardBody(req, res);
      if (allowed.size > 0) {
        const methods = [...allowed].sort().join(", ");
        sendError(res, ErrorCode.MethodNotAllowed, `${method} is not supported on ${url.pathname}: use ${methods}.`, { allow: methods });
      } else sendError(res, ErrorCode.NotFound, `There is no ${url.pathname} on the Spillway endpoint.`);
      return;
    }
    const wantsJson = route.opts.json ?? ["POST", "PUT", "PATCH"].includes(method);
    const body = wantsJson ? await readJson(req, maxBody) : undefined;
    await route.handler(req, res, { url, body });
  };

  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown): void => {
    // A client that went away or timed out mid-body (Node answered the timeout with 408) is not a fault of ours.
    if (req.destroyed && !req.complete) {
      opts.logger.info("http request ended before its body was received", { method: req.method, url: req.url, error: describeError(err) });
      return;
    }
    if (err instanceof SpillwayError) {
      // Refused before its body was all read (413): the rest is not read, so the connection ends.
      sendError(res, err.code, err.message, req.complete ? {} : { connection: "close" });
      return;
    }
    opts.logger.error("http request failed", { method: req.method, url: req.url, error: describeError(err) });
    sendError(res, ErrorCode.Internal, "Spillway failed to answer this request; the details are in its log.");
  };

  const requestTimeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout);
  const server = createServer(
    // Node checks the deadlines every connectionsCheckingInterval (30 s by default), which would let a
    // stalled client stay up to half a minute past them.
    { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.min(5_000, Math.ceil(headersTimeout / 4)) },
    (req, res) => {
      // Every answer, whoever writes it (a route, the guard, the MCP SDK's transport), is read as the type it declares.
      res.setHeader("x-content-type-options", "nosniff");
      handle(req, res).catch((err) => fail(req, res, err));
    },
  );

  return {
    addRoute(method, path, handler, routeOpts = {}) {
      const prefix = path.endsWith("/*");
      const clean = prefix ? path.slice(0, -2) || "/" : path;
      const methods = new Set((Array.isArray(method) ? method : [method]).map((m) => m.toUpperCase()));
      routes.push({ methods, path: clean, prefix, handler, opts: routeOpts });
    },
    onClose(fn) {
      closers.push(fn);
    },
    listen() {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        // Loopback only: the endpoint serves this user's agents, never the network.
        server.listen(opts.port, "127.0.0.1", () => {
          server.off("error", reject);
          port = (server.address() as AddressInfo).port;
          resolve({ port, url: `http://127.0.0.1:${port}` });
        });
      });
    },
    async close() {
      for (const fn of closers.splice(0)) {
        try {
          await fn();
        } catch (err) {
          opts.logger.warn("closing an http component failed", { error: describeError(err) });
        }
      }
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Long-lived SSE streams and keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      });
    },
    get port() {
      return port;
    },
    token: opts.token,
    server,
  };
}
