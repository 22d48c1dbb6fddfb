/** Serves the built renderer (dist/renderer) with the strict CSP; nothing outside that folder. */
import { readFileSync, statSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { extname, join, resolve, sep } from "node:path";

/** The CSP of the inspector page, also sent as a header (the meta tag in index.html says the same). */
export const INSPECTOR_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; font-src 'self' data:; " +
  "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": INSPECTOR_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".ttf": "font/ttf",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
};

/** The file under `root` for a URL path, or null when it is outside `root`, missing or not a file. */
export function resolveStatic(root: string, urlPath: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (rel.includes("\0")) return null;
  const base = resolve(root);
  const file = resolve(join(base, rel === "/" ? "index.html" : rel));
  if (file !== base && !file.startsWith(base + sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

export function sendStatic(res: ServerResponse, root: string, urlPath: string): void {
  const file = resolveStatic(root, urlPath);
  if (!file) {
    const built = resolveStatic(root, "/index.html") !== null;
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8", ...SECURITY_HEADERS });
    res.end(built ? "Not found.\n" : "The inspector is not built yet: run `npm run build:renderer`, then reload.\n");
    return;
  }
  const ext = extname(file);
  const body = readFileSync(file);
  res.writeHead(200, {
    "content-type": TYPES[ext] ?? "application/octet-stream",
    "content-length": body.length,
    // Hashed asset names never change content; index.html must always be fresh.
    "cache-control": ext === ".html" ? "no-cache" : "public, max-age=31536000, immutable",
    ...SECURITY_HEADERS,
  });
  res.end(body);
}
