/**
 * The app's host under Node: real engine and store, the real endpoint on a free port, and the
 * inspector operations the window calls, run through the same dispatch IPC uses.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EndpointStatus, ExportTicket, ConnectSnippet } from "../../core/inspector/api/dto";
import { memoryLogger } from "../../core/runtime";
import type { SafeStorageLike } from "../keys/safeStorageKeys";
import { SAFE_KEY_FILE } from "../keys/safeStorageKeys";
import { createDesktopHost, type DesktopHost } from "./desktopHost";

const safeStorage: SafeStorageLike = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => "gnome_libsecret",
  encryptString: (s) => Buffer.from(`enc:${Buffer.from(s).toString("base64")}`),
  decryptString: (b) => Buffer.from(b.toString().slice(4), "base64").toString(),
};

let dir: string;
let host: DesktopHost;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "spillway-host-"));
  host = createDesktopHost({
    home: join(dir, "home"),
    safeStorage,
    logger: memoryLogger(),
    downloadsDir: () => join(dir, "Downloads"),
    appRoot: "/opt/spillway-checkout",
    port: 0,
  });
});
afterEach(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

async function op<T>(name: string, req: unknown = {}): Promise<T> {
  const r = await host.dispatch(name, req);
  if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

describe("desktop host", () => {
  it("starts and stops the endpoint through the inspector operations, as the window's buttons do", async () => {
    const before = await op<EndpointStatus>("endpoint.status");
    expect(before).toMatchObject({
      running: false,
      mode: "desktop",
      canControl: true,
      canCopyToken: true,
      tokenFile: join(dir, "home", "token"),
    });
    const started = await op<EndpointStatus>("endpoint.start");
    expect(started.running).toBe(true);
    expect(started.mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const res = await fetch(started.mcpUrl!, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    const { token } = await op<{ token: string }>("endpoint.token");
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(host.claudeCodeConfig(started.mcpUrl!)).toContain(`--transport http spillway ${started.mcpUrl}`);
    expect(host.claudeCodeConfig(started.mcpUrl!)).not.toContain(token);
    const stopped = await op<EndpointStatus>("endpoint.stop");
    expect(stopped.running).toBe(false);
    await expect(fetch(started.mcpUrl!, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("offers every agent's connect snippet, pointing at this checkout's CLI", async () => {
    const snippets = await op<ConnectSnippet[]>("connect.snippets");
    expect(snippets.map((s) => s.agent)).toContain("claude-code");
    expect(snippets.find((s) => s.agent === "claude-code")!.text).toContain("/opt/spillway-checkout/bin/spillway.js");
  });

  it("keeps credential blobs' key in safeStorage and exports a blob to a private file in Downloads", async () => {
    const secret = `config dump\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n${"x=1\n".repeat(5000)}`;
    const r = host.engine.transformToolResult({ sessionId: "s", tool: "env", text: secret });
    expect(r.outcome).toBe("rescued");
    await host.engine.idle();
    expect(existsSync(join(dir, "home", SAFE_KEY_FILE))).toBe(true);
    const ticket = await op<ExportTicket>("blobs.export", { id: r.blobId, masked: true });
    expect(ticket.kind).toBe("saved");
    expect(ticket.path!.startsWith(join(dir, "Downloads"))).toBe(true);
    expect(statSync(ticket.path!).mode & 0o777).toBe(0o600);
    const text = readFileSync(ticket.path!, "utf8");
    expect(text).not.toContain("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    const again = await op<ExportTicket>("blobs.export", { id: r.blobId, masked: false });
    expect(again.filename).not.toBe(ticket.filename);
    expect(readFileSync(again.path!, "utf8")).toContain("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
  });
});
