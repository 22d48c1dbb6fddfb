/**
 * Maps an app:// URL to a file inside the built renderer, refusing anything that could leave it.
 * Chromium normalises standard-scheme URLs before the handler sees them, but the handler must not
 * rely on that: every check here runs on the raw string, again after decoding, and once more on
 * the resolved path, so one missed normalisation cannot open the file system.
 */
import { isAbsolute, resolve, sep } from "node:path";

/** The scheme and host the renderer is served from; also the origin IPC senders must have. */
export const APP_SCHEME = "app";
export const APP_HOST = "bundle";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

export type AppPathResult = { ok: true; path: string } | { ok: false; status: 400 | 403 | 404; reason: string };

const deny = (status: 400 | 403 | 404, reason: string): AppPathResult => ({ ok: false, status, reason });

/** Encoded dot, slash, backslash and NUL: never needed by a Vite build's file names. */
const ENCODED_SEPARATORS = /%(2e|2f|5c|00)/i;

function badSegments(path: string): string | null {
  if (path.includes("\\")) return "backslash in path";
  if (path.includes("\0")) return "NUL in path";
  if (/^[a-z]:/i.test(path) || /\/[a-z]:/i.test(path)) return "drive letter in path";
  const segments = path.split("/");
  // The first segment is empty (the path starts with "/"); another empty one means "//", which an
  // absolute-path join would treat as a root.
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i]!;
    if (s === "." || s === "..") return "dot segment in path";
    if (s === "" && i < segments.length - 1) return "empty segment in path";
  }
  return null;
}

/** Resolves `rawUrl` (as the request carried it) to a file under `rootDir`, or says why not. */
export function resolveAppPath(rawUrl: string, rootDir: string): AppPathResult {
  const prefix = `${APP_SCHEME}://`;
  if (!rawUrl.toLowerCase().startsWith(prefix)) return deny(400, "not an app:// URL");
  const rest = rawUrl.slice(prefix.length);
  const slash = rest.indexOf("/");
  const host = (slash < 0 ? rest : rest.slice(0, slash)).toLowerCase();
  if (host !== APP_HOST) return deny(404, `unknown host "${host}"`);
  const rawPath = (slash < 0 ? "/" : rest.slice(slash)).split(/[?#]/, 1)[0]!;

  if (ENCODED_SEPARATORS.test(rawPath)) return deny(403, "encoded separator in path");
  const rawProblem = badSegments(rawPath);
  if (rawProblem) return deny(403, rawProblem);

  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return deny(400, "malformed percent-encoding");
  }
  const decodedProblem = badSegments(decoded);
  if (decodedProblem) return deny(403, decodedProblem);

  const relative = decoded === "/" ? "index.html" : decoded.slice(1);
  if (isAbsolute(relative)) return deny(403, "absolute path");
  const root = resolve(rootDir);
  const target = resolve(root, relative);
  if (!target.startsWith(root + sep)) return deny(403, "path leaves the renderer folder");
  return { ok: true, path: target };
}
