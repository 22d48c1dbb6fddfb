/** The app:// scheme: serves the built renderer, read-only, with the CSP on every response. */
import { readFile, realpath } from "node:fs/promises";
import { extname, sep } from "node:path";
import type { ProtocolPort, ProtocolRequest } from "../ports";
import { APP_SCHEME, resolveAppPath } from "./appPath";
import { securityHeaders } from "./csp";

/**
 * The privileges app:// needs: `standard` for relative URLs and an origin, `secure` so it counts
 * as a secure context, `supportFetchAPI` for module scripts. Not `bypassCSP`, not `corsEnabled`.
 * Must be registered before the app is ready (see main.ts).
 */
export const APP_SCHEME_PRIVILEGES = [{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }];

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

function refuse(status: number, reason: string): Response {
  return new Response(reason, { status, headers: { ...securityHeaders(), "Content-Type": "text/plain; charset=utf-8" } });
}

/** A request handler for app:// rooted at `rootDir`; a plain function so tests call it directly. */
export function createAppProtocolHandler(rootDir: string): (request: ProtocolRequest) => Promise<Response> {
  let realRoot: Promise<string> | null = null;
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return refuse(405, "method not allowed");
    const resolved = resolveAppPath(request.url, rootDir);
    if (!resolved.ok) return refuse(resolved.status, resolved.reason);
    try {
      realRoot ??= realpath(rootDir);
      const root = await realRoot;
      // A symlink inside the build must not point outside it either.
      const real = await realpath(resolved.path);
      if (!real.startsWith(root + sep)) return refuse(403, "path leaves the renderer folder");
      const body = await readFile(real);
      const type = MIME[extname(real).toLowerCase()] ?? "application/octet-stream";
      return new Response(request.method === "HEAD" ? null : body, {
        status: 200,
        headers: { ...securityHeaders(), "Content-Type": type },
      });
    } catch {
      realRoot = null;
      return refuse(404, "not found");
    }
  };
}

/** Registers the app:// handler on the default session; returns the undo. */
export function setupProtocol(deps: { protocol: ProtocolPort }, opts: { rendererDir: string }): () => void {
  deps.protocol.handle(APP_SCHEME, createAppProtocolHandler(opts.rendererDir));
  return () => deps.protocol.unhandle(APP_SCHEME);
}
