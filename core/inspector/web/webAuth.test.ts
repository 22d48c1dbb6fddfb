import type { IncomingMessage } from "node:http";
import { LOGIN_CODE_TTL_MS, SESSION_TTL_MS, WebAuth } from "./webAuth";

const TOKEN = "t".repeat(64);
const withCookie = (auth: WebAuth, sid: string) => ({ headers: { cookie: `${auth.cookieName}=${sid}` } }) as unknown as IncomingMessage;

describe("web inspector login (on an injected clock)", () => {
  it("spends a login code once, and not after it expired", () => {
    let now = 1_000_000;
    const auth = new WebAuth(TOKEN, 7341, () => now);
    const a = auth.newLoginCode();
    expect(auth.redeem(a)).toMatch(/^[\w-]{40,}$/);
    expect(auth.redeem(a)).toBeNull();
    const b = auth.newLoginCode();
    now += LOGIN_CODE_TTL_MS + 1;
    expect(auth.redeem(b)).toBeNull();
  });

  it("ends a browser session when its time is up; the bearer token always works", () => {
    let now = 0;
    const auth = new WebAuth(TOKEN, 7341, () => now);
    const sid = auth.redeem(auth.newLoginCode())!;
    expect(auth.check(withCookie(auth, sid))).toBe("cookie");
    now += SESSION_TTL_MS + 1;
    expect(auth.check(withCookie(auth, sid))).toBeNull();
    expect(auth.check({ headers: { authorization: `Bearer ${TOKEN}` } } as unknown as IncomingMessage)).toBe("bearer");
  });
});
