import { describe, expect, it } from "vitest";
import { requestSchemas, type OpName, type Pushed } from "../../core/inspector/api/contract";
import { ErrorCode, SpillwayError } from "../../core/errors";
import type { IpcInvokeEvent, IpcMainPort } from "../ports";
import { buildInspectorApi } from "../preload/buildApi";
import { EVENT_CHANNEL, invokeChannel } from "./channels";
import { createSenderCheck } from "./senderCheck";
import { createDispatch } from "../../core/inspector/handlers/dispatch";
import type { Handlers } from "../../core/inspector/handlers/handlers";
import { memoryLogger } from "../../core/runtime";
import { handleInvoke, setupIpc, type IpcDeps } from "./setupIpc";

const WINDOW_ID = 7;
const fromApp: IpcInvokeEvent = { sender: { id: WINDOW_ID }, senderFrame: { url: "app://bundle/index.html#/blobs" } };

/** A fake ipcMain that keeps the registered handlers, as Electron's does. */
function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcInvokeEvent, ...args: unknown[]) => unknown>();
  const port: IpcMainPort = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => void handlers.delete(channel),
  };
  return { port, handlers };
}

function deps(): IpcDeps & { calls: unknown[]; logger: ReturnType<typeof memoryLogger> } {
  const calls: unknown[] = [];
  const handlers = {
    "blobs.get": (req: { id: string }) => {
      calls.push(req);
      if (req.id === "0000000000ff") throw new SpillwayError(ErrorCode.NotFound, "There is no blob 0000000000ff.");
      return { id: req.id };
    },
    "blobs.list": (req: unknown) => {
      calls.push(req);
      return { rows: [], total: 0 };
    },
    "endpoint.start": () => {
      throw new Error("disk on fire");
    },
  } as unknown as Handlers;
  const logger = memoryLogger();
  return { dispatch: createDispatch(handlers, logger), isTrustedSender: createSenderCheck(() => WINDOW_ID), calls, logger };
}

describe("IPC handlers", () => {
  it("registers exactly one handler per contract operation, and removes them all", () => {
    const ipc = fakeIpcMain();
    const undo = setupIpc({ ipcMain: ipc.port }, deps());
    const ops = Object.keys(requestSchemas) as OpName[];
    expect([...ipc.handlers.keys()].toSorted()).toEqual(ops.map(invokeChannel).toSorted());
    undo();
    expect(ipc.handlers.size).toBe(0);
  });

  it("answers the app's own window with the handler's value, request defaults filled in", async () => {
    const d = deps();
    const res = await handleInvoke("blobs.list", d, fromApp, {});
    expect(res).toEqual({ ok: true, value: { rows: [], total: 0 } });
    expect(d.calls[0]).toMatchObject({ offset: 0, limit: 200, sort: { by: "createdAt", dir: "desc" } });
  });

  const foreign: [string, IpcInvokeEvent][] = [
    ["another webContents", { sender: { id: 99 }, senderFrame: { url: "app://bundle/index.html" } }],
    ["a remote page in the window", { sender: { id: WINDOW_ID }, senderFrame: { url: "https://evil.example/" } }],
    ["a file:// page in the window", { sender: { id: WINDOW_ID }, senderFrame: { url: "file:///tmp/x.html" } }],
    ["another app:// host", { sender: { id: WINDOW_ID }, senderFrame: { url: "app://other/index.html" } }],
    ["a destroyed frame", { sender: { id: WINDOW_ID }, senderFrame: null }],
    ["a subframe", { sender: { id: WINDOW_ID }, senderFrame: { url: "app://bundle/x.html", parent: {} } as { url: string } }],
  ];
  it.each(foreign)("rejects %s without calling the handler", async (_name, event) => {
    const d = deps();
    const res = await handleInvoke("blobs.get", d, event, { id: "0123456789ab" });
    expect(res).toEqual({ ok: false, error: { code: "forbidden", message: expect.stringContaining("blobs.get") } });
    expect(d.calls).toEqual([]);
  });

  it("rejects a foreign sender when no window is open at all", async () => {
    const d = { ...deps(), isTrustedSender: createSenderCheck(() => null) };
    expect((await handleInvoke("blobs.list", d, fromApp, {})).ok).toBe(false);
  });

  const malformed: [string, OpName, unknown][] = [
    ["a bad blob id", "blobs.get", { id: "../../etc" }],
    ["a missing field", "blobs.get", {}],
    ["an unknown field", "blobs.get", { id: "0123456789ab", extra: 1 }],
    ["a wrong type", "blobs.list", { limit: "all" }],
    ["a string instead of an object", "blobs.list", "DROP TABLE blobs"],
    ["an out-of-range number", "blobs.list", { limit: 1e9 }],
  ];
  it.each(malformed)("rejects %s with bad_request, naming the field", async (_name, op, payload) => {
    const d = deps();
    const res = await handleInvoke(op, d, fromApp, payload);
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.code).toBe("bad_request");
      expect(res.error.message).toContain(op);
    }
    expect(d.calls).toEqual([]);
  });

  it("turns expected failures into coded errors and logs unexpected ones", async () => {
    const d = deps();
    expect(await handleInvoke("blobs.get", d, fromApp, { id: "0000000000ff" })).toEqual({
      ok: false,
      error: { code: "not_found", message: "There is no blob 0000000000ff." },
    });
    const failed = await handleInvoke("endpoint.start", d, fromApp, {});
    expect(failed).toMatchObject({ ok: false, error: { code: "internal" } });
    expect(d.logger.entries.some((e) => e.level === "error")).toBe(true);
  });
});

describe("window.spillway (the preload's API)", () => {
  it("has one method per operation, nested by namespace, and reaches main's handlers", async () => {
    const ipc = fakeIpcMain();
    setupIpc({ ipcMain: ipc.port }, deps());
    const invoke = async (channel: string, req: unknown) => ipc.handlers.get(channel)!(fromApp, req);
    const api = buildInspectorApi(Object.keys(requestSchemas) as OpName[], invoke, () => () => {});
    for (const op of Object.keys(requestSchemas)) {
      const [ns, m] = op.split(".");
      expect(typeof (api as unknown as Record<string, Record<string, unknown>>)[ns!]![m!]).toBe("function");
    }
    expect(await api.blobs.get({ id: "0123456789ab" })).toEqual({ ok: true, value: { id: "0123456789ab" } });
    expect((await api.blobs.get({ id: "nope" })).ok).toBe(false);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api)).not.toContain("invoke");
  });

  it("answers a failed invoke as data, and subscribe relays only event payloads", async () => {
    let relay: ((e: Pushed) => void) | null = null;
    const api = buildInspectorApi(
      ["blobs.list"],
      async () => {
        throw new Error("No handler registered");
      },
      (listener) => {
        relay = listener;
        return () => (relay = null);
      },
    );
    expect(await api.blobs.list({})).toMatchObject({ ok: false, error: { code: "internal" } });
    const seen: Pushed[] = [];
    const off = api.subscribe((e) => seen.push(e));
    relay!({ event: "config", data: { savedAt: 1 } });
    off();
    expect(seen).toEqual([{ event: "config", data: { savedAt: 1 } }]);
    expect(relay).toBeNull();
    expect(EVENT_CHANNEL).toMatch(/^spillway:/);
  });

  it("refuses an operation name that would not nest", () => {
    expect(() =>
      buildInspectorApi(
        ["blobs" as OpName],
        async () => null,
        () => () => {},
      ),
    ).toThrow(/namespace\.method/);
  });
});
