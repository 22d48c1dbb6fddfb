/**
 * How a browser gets into the web inspector without the bearer token ever entering a page:
 * `spillway serve` prints a one-time login link; opening it swaps the code for an HttpOnly,
 * SameSite=Strict session cookie. API calls then carry the cookie (or, for scripts, the token).
 * The cookie never turns into the token (web mode has no operation that returns it), and signing
 * out ends the session on the server, not only in the browser.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { tokenMatches } from "../../http/token";

/** How long a printed login link works. */
export const LOGIN_CODE_TTL_MS = 15 * 60_000;
/** Browser sessions last this long (they also end when the server stops). */
export const SESSION_TTL_MS = 12 * 3_600_000;

function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

export class WebAuth {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Map<string, number>();
  /** Cookies are not port-scoped: the port in the name keeps two servers on one machine apart. */
  readonly cookieName: string;

  constructor(
    private readonly token: string,
    port: number,
    private readonly now: () => number,
  ) {
    this.cookieName = `spillway_session_${port}`;
  }

  /** A fresh one-time login code. */
  newLoginCode(): string {
    this.prune();
    const code = randomBytes(24).toString("base64url");
    this.codes.set(code, this.now() + LOGIN_CODE_TTL_MS);
    return code;
  }

  /** Spends a login code; the new session id, or null when the code is unknown, used or expired. */
  redeem(code: string | null): string | null {
    if (!code) return null;
    const until = this.codes.get(code);
    this.codes.delete(code);
    if (until === undefined || until < this.now()) return null;
    const sid = randomBytes(32).toString("base64url");
    this.sessions.set(sid, this.now() + SESSION_TTL_MS);
    return sid;
  }

  setCookie(sid: string): string {
    return `${this.cookieName}=${sid}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(SESSION_TTL_MS / 1000)}`;
  }

  /** Tells the browser to drop the cookie (the session itself ends on the server: `end`). */
  clearCookie(): string {
    return `${this.cookieName}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
  }

  /** How the request authenticated: the session cookie, the bearer token, or not at all. */
  check(req: IncomingMessage): "cookie" | "bearer" | null {
    const auth = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
    if (auth && tokenMatches(auth[1]!, this.token)) return "bearer";
    return this.sessionOf(req) ? "cookie" : null;
  }

  /** The live session the request's cookie names, or null. */
  sessionOf(req: IncomingMessage): string | null {
    const sid = parseCookies(req.headers.cookie).get(this.cookieName);
    return sid && this.live(sid) ? sid : null;
  }

  /** Whether a session is still signed in: not ended, not expired. */
  live(sid: string): boolean {
    const until = this.sessions.get(sid);
    if (until === undefined) return false;
    if (until < this.now()) {
      this.sessions.delete(sid);
      return false;
    }
    return true;
  }

  /** Signs a session out: its cookie is refused from now on, wherever it was copied to. */
  end(sid: string): boolean {
    return this.sessions.delete(sid);
  }

  private prune(): void {
    const t = this.now();
    for (const [k, until] of this.codes) if (until < t) this.codes.delete(k);
    for (const [k, until] of this.sessions) if (until < t) this.sessions.delete(k);
  }
}
