/**
 * The tray against a real endpoint: a real engine on real SQLite in a temp home, core's HTTP/MCP
 * server on a free loopback port, and real HTTP requests to check it is (or is not) listening.
 * Only Electron's Tray, Menu, nativeImage and clipboard are fakes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../core/engine/engine";
import { ensureToken } from "../../core/http/token";
import { parseConfig } from "../../core/config/config";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { createEndpointController, type EndpointController } from "../endpoint/endpointController";
import { inProcessEndpoint } from "../endpoint/mcpEndpoint";
import type { MenuItemSpec } from "../ports";
import { openSettings } from "../settings/settings";
import { readTrayFigures } from "./trayFigures";
import { TRAY_ITEM } from "./trayMenu";
import { setupTray, type TrayHandle } from "./setupTray";

class FakeTray {
  static last: FakeTray;
  menu: MenuItemSpec[] = [];
  tip = "";
  destroyed = false;
  constructor(readonly image: unknown) {
    FakeTray.last = this;
  }
  setContextMenu(menu: object | null) {
    this.menu = (menu as MenuItemSpec[]) ?? [];
  }
  setToolTip(t: string) {
    this.tip = t;
  }
  on() {
    return this;
  }
  destroy() {
    this.destroyed = true;
  }
}

const item = (id: string) => FakeTray.last.menu.find((i) => i.id === id)!;
const changed = (c: EndpointController, phase: string) =>
  new Promise<void>((resolve) => {
    const off = c.onChange((s) => {
      if (s.phase === phase) {
        off();
        resolve();
      }
    });
  });

async function isListening(url: string): Promise<number | "refused"> {
  try {
    const res = await fetch(url, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    await res.body?.cancel();
    return res.status;
  } catch {
    return "refused";
  }
}

describe("tray", () => {
  let home: ReturnType<typeof tempHome>;
  let engine: Engine;
  let endpoint: EndpointController;
  let tray: TrayHandle;
  let clipboard: string[];
  let opened = 0;
  let quit = 0;

  beforeEach(() => {
    home = tempHome("spillway-tray-");
    engine = createEngine({ home: home.path, config: parseConfig({}), logger: memoryLogger() });
    endpoint = createEndpointController(inProcessEndpoint({ engine, home: home.path, port: 0 }));
    clipboard = [];
    const settings = openSettings(home.path);
    tray = setupTray(
      {
        Tray: FakeTray,
        Menu: { buildFromTemplate: (t) => t },
        nativeImage: { createFromPath: (p) => ({ p }) },
        clipboard: { writeText: (t) => void clipboard.push(t) },
      },
      {
        iconPath: "/icons/tray.png",
        endpoint,
        figures: () => readTrayFigures(engine),
        claudeCodeConfig: (url) => JSON.stringify({ mcpServers: { spillway: { type: "http", url } } }),
        settings: () => settings.get(),
        updateSettings: (p) => void settings.update(p),
        openInspector: () => void opened++,
        quit: () => void quit++,
      },
    );
  });
  afterEach(async () => {
    tray.destroy();
    await endpoint.stop();
    await engine.close();
    home.cleanup();
  });

  it("shows the endpoint stopped, with the store's figures, before anything runs", () => {
    expect(item(TRAY_ITEM.status).label).toBe("MCP endpoint stopped");
    expect(item(TRAY_ITEM.figures).label).toBe("0 sessions · 0 blobs · 0 tokens saved today");
    expect(item(TRAY_ITEM.toggle).label).toBe("Start MCP endpoint");
    expect(item(TRAY_ITEM.copyUrl).enabled).toBe(false);
    expect(FakeTray.last.tip).toContain("stopped");
  });

  it("starts a real endpoint from the menu, reflects it, copies its URL and config, then stops it", async () => {
    const running = changed(endpoint, "running");
    item(TRAY_ITEM.toggle).click!();
    await running;
    const url = endpoint.status().mcpUrl!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(item(TRAY_ITEM.status).label).toBe(`MCP endpoint running at ${url}`);
    expect(item(TRAY_ITEM.toggle).label).toBe("Stop MCP endpoint");
    // A real request: without the token the endpoint answers 401, so it is up and guarded.
    expect(await isListening(url)).toBe(401);
    const init = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ensureToken(home.path)}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "tray-test", version: "1" } },
      }),
    });
    expect(init.status).toBe(200);
    expect(await init.text()).toContain("serverInfo");

    item(TRAY_ITEM.copyUrl).click!();
    item(TRAY_ITEM.copyConfig).click!();
    expect(clipboard[0]).toBe(url);
    expect(JSON.parse(clipboard[1]!).mcpServers.spillway.url).toBe(url);

    const stopped = changed(endpoint, "stopped");
    item(TRAY_ITEM.toggle).click!();
    await stopped;
    expect(item(TRAY_ITEM.status).label).toBe("MCP endpoint stopped");
    expect(item(TRAY_ITEM.toggle).label).toBe("Start MCP endpoint");
    expect(await isListening(url)).toBe("refused");
  });

  it("shows a port conflict as an error line and stays stopped", async () => {
    const first = createEndpointController(inProcessEndpoint({ engine, home: home.path, port: 0 }));
    await first.start();
    const port = Number(new URL(first.status().url!).port);
    const clash = createEndpointController(inProcessEndpoint({ engine, home: home.path, port }));
    const s = await clash.start();
    expect(s.phase).toBe("stopped");
    expect(s.error).toMatch(/port \d+ is already in use/);
    await first.stop();
  });

  it("counts sessions, blobs and today's saved tokens from the store", async () => {
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i}: compiled module src/mod${i}.ts`).join("\n");
    engine.transformToolResult({ sessionId: "s1", tool: "build", text });
    await engine.idle();
    tray.refresh();
    expect(item(TRAY_ITEM.figures).label).toMatch(/^1 session · 1 blob · [\d.,kM]+ tokens saved today$/);
    expect(readTrayFigures(engine).tokensSavedToday).toBeGreaterThan(1000);
  });

  it("toggles the options, opens the inspector, quits, and stops updating once destroyed", () => {
    item(TRAY_ITEM.startWithApp).click!();
    expect(item(TRAY_ITEM.startWithApp).checked).toBe(true);
    item(TRAY_ITEM.startAtLogin).click!();
    expect(item(TRAY_ITEM.startAtLogin).checked).toBe(true);
    expect(openSettings(home.path).get()).toEqual({ startAtLogin: true, startEndpointWithApp: true });
    item(TRAY_ITEM.open).click!();
    item(TRAY_ITEM.quit).click!();
    expect([opened, quit]).toEqual([1, 1]);
    tray.destroy();
    expect(FakeTray.last.destroyed).toBe(true);
  });
});
