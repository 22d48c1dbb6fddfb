/** Who may talk to the local endpoint: loopback Host, same-origin browsers only, and the bearer token. */
import { ErrorCode } from "../errors";
import type { IncomingMessage } from "node:http";
import { tokenMatches } from "./token";

export interface GuardRejection {
  code: ErrorCode.Forbidden | ErrorCode.Unauthorized;
  message: string;
}

export interface GuardOptions {
  port: number;
  token: string;
}

/** The Host values a loopback client sends; anything else is a DNS-rebinding attempt or a proxy. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((h) => `http://${h}`);
}

/** Checks Host and Origin (always) and the bearer token (when `auth`); null means the request may proceed. */
export function checkRequest(req: IncomingMessage, opts: GuardOptions, auth = true): GuardRejection | null {
  const host = (req.headers.host ?? "").toLowerCase();
  if (!allowedHosts(opts.port).includes(host)) {
    return { code: ErrorCode.Forbidden, message: `Host "${host || "(none)"}" is not allowed: use http://127.0.0.1:${opts.port}.` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins(opts.port).includes(origin.toLowerCase())) {
    return { code: ErrorCode.Forbidden, message: `Origin "${origin}" is not allowed to call the Spillway endpoint.` };
  }
  if (!auth) return null;
  const header = req.headers.authorization ?? "";
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m || !tokenMatches(m[1]!, opts.token)) {
    return {
      code: ErrorCode.Unauthorized,
      message: header
        ? "The bearer token is wrong: use the one in $SPILLWAY_HOME/token."
        : "A bearer token is required: send Authorization: Bearer <the token in $SPILLWAY_HOME/token>.",
    };
  }
  return null;
}
