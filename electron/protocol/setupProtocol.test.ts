import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProtocolRequest } from "../ports";
import { resolveAppPath } from "./appPath";
import { createAppProtocolHandler, setupProtocol } from "./setupProtocol";

let base: string;
let root: string;
const get = (url: string): ProtocolRequest => ({ url, method: "GET" });

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "spillway-proto-"));
  root = join(base, "renderer");
  mkdirSync(join(root, "assets"), { recursive: true });
  writeFileSync(join(root, "index.html"), "<!doctype html><title>Spillway</title>");
  writeFileSync(join(root, "assets", "app.js"), "console.log('hi')");
  // A secret beside the renderer folder, and one in a sibling whose name shares the prefix.
  writeFileSync(join(base, "secret.txt"), "TOP SECRET");
  mkdirSync(join(base, "renderer-evil"));
  writeFileSync(join(base, "renderer-evil", "x.js"), "evil");
  symlinkSync(join(base, "secret.txt"), join(root, "assets", "link.txt"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("app:// protocol", () => {
  it("serves the renderer's files with the CSP and a content type", async () => {
    const handler = createAppProtocolHandler(root);
    const index = await handler(get("app://bundle/"));
    expect(index.status).toBe(200);
    expect(await index.text()).toContain("<title>Spillway</title>");
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(index.headers.get("content-security-policy")).toContain("script-src 'self'");
    const js = await handler(get("app://bundle/assets/app.js?v=1"));
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect(js.headers.get("x-content-type-options")).toBe("nosniff");
  });

  const attacks = [
    "app://bundle/../secret.txt",
    "app://bundle/assets/../../secret.txt",
    "app://bundle/%2e%2e/secret.txt",
    "app://bundle/%2E%2E/%2e%2e/secret.txt",
    "app://bundle/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
    "app://bundle/..%2fsecret.txt",
    "app://bundle/..%5csecret.txt",
    "app://bundle/..\\secret.txt",
    "app://bundle/assets\\..\\..\\secret.txt",
    "app://bundle//etc/passwd",
    "app://bundle/%2fetc%2fpasswd",
    "app://bundle/C:/Windows/win.ini",
    "app://bundle/index.html%00.js",
    "app://bundle/../renderer-evil/x.js",
    "app://bundle/%252e%252e/secret.txt",
  ];

  it.each(attacks)("refuses path traversal: %s", async (url) => {
    const res = await createAppProtocolHandler(root)(get(url));
    expect(res.status).toBeGreaterThanOrEqual(400);
    const body = await res.text();
    expect(body).not.toContain("TOP SECRET");
    expect(body).not.toContain("evil");
    expect(res.headers.get("content-security-policy")).toBeTruthy();
  });

  it("refuses a symlink that points outside the renderer folder", async () => {
    const res = await createAppProtocolHandler(root)(get("app://bundle/assets/link.txt"));
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain("TOP SECRET");
  });

  it("refuses other hosts, other schemes and non-GET methods", async () => {
    const handler = createAppProtocolHandler(root);
    expect((await handler(get("app://elsewhere/index.html"))).status).toBe(404);
    expect((await handler(get("file:///etc/passwd"))).status).toBe(400);
    expect((await handler({ url: "app://bundle/index.html", method: "POST" })).status).toBe(405);
    expect((await handler(get("app://bundle/missing.js"))).status).toBe(404);
  });

  it("resolves only inside the root, checked on the path itself", () => {
    const ok = resolveAppPath("app://bundle/assets/app.js", root);
    expect(ok).toEqual({ ok: true, path: join(root, "assets", "app.js") });
    const bad = resolveAppPath("app://bundle/a/%2e%2e/%2e%2e/x", root);
    expect(bad.ok).toBe(false);
  });

  it("registers and unregisters the handler on the scheme", async () => {
    const handlers = new Map<string, (r: ProtocolRequest) => Response | Promise<Response>>();
    const protocol = {
      handle: (s: string, h: (r: ProtocolRequest) => Response | Promise<Response>) => void handlers.set(s, h),
      unhandle: (s: string) => void handlers.delete(s),
    };
    const undo = setupProtocol({ protocol }, { rendererDir: root });
    const res = await handlers.get("app")!(get("app://bundle/index.html"));
    expect(res.status).toBe(200);
    undo();
    expect(handlers.size).toBe(0);
  });
});
