/** Response helpers: every JSON answer of the endpoint is `{ ok: true, value }` or `{ ok: false, error }`. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode, httpStatusOf, SpillwayError } from "../errors";

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const data = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(data),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(data);
}

export function sendOk(res: ServerResponse, value: unknown): void {
  sendJson(res, 200, { ok: true, value });
}

/** An error answer, its HTTP status taken from the code (core/errors.ts). */
export function sendError(res: ServerResponse, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, httpStatusOf(code), { ok: false, error: { code, message } }, headers);
}

/** How much of a refused request's body is read and dropped before its connection is closed. */
const DISCARD_MAX_BYTES = 1024 * 1024;

/**
 * The body of a refused request is not wanted: up to 1 MB of it is read and dropped (so a client
 * still sending reads the answer rather than a reset), then the connection closes, so a client
 * cannot make the server read a 500 MB upload it already said no to. `res` gets `connection: close`.
 */
export function discardBody(req: IncomingMessage, res?: ServerResponse): void {
  if (res && !res.headersSent) res.setHeader("connection", "close");
  if (req.complete) return;
  let seen = 0;
  req.removeAllListeners("data");
  req.on("data", (c: Buffer) => {
    seen += c.length;
    if (seen > DISCARD_MAX_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** Reads the whole body, refusing more than `limit` bytes with a 413 before buffering it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      discardBody(req);
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        discardBody(req);
        reject(tooLarge(limit));
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function tooLarge(limit: number): SpillwayError {
  return new SpillwayError(
    ErrorCode.TooLarge,
    `The request body is over the ${Math.round(limit / 1024 / 1024)} MB limit of the Spillway endpoint.`,
  );
}

/** Parses a JSON body; an empty body is `undefined`. */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const buf = await readBody(req, limit);
  if (buf.length === 0) return undefined;
  try {
    return JSON.parse(buf.toString("utf8"));
  } catch {
    throw new SpillwayError(ErrorCode.BadRequest, "The request body is not valid JSON.");
  }
}
