/**
 * The preload (sandboxed, CommonJS once bundled): exposes `window.spillway`, typed from the
 * inspector contract, and nothing else. ipcRenderer stays in here; the page gets only the
 * generated methods and a subscribe that passes event data, never the IPC event object.
 */
import { contextBridge, ipcRenderer } from "electron";
import type { Pushed } from "../core/inspector/api/contract";
import { OP_NAMES } from "../core/inspector/api/operations";
import { EVENT_CHANNEL } from "./ipc/channels";
import { buildInspectorApi } from "./preload/buildApi";

const api = buildInspectorApi(
  OP_NAMES,
  (channel, request) => ipcRenderer.invoke(channel, request),
  (listener) => {
    const relay = (_event: unknown, pushed: Pushed) => listener(pushed);
    ipcRenderer.on(EVENT_CHANNEL, relay);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, relay);
    };
  },
);

contextBridge.exposeInMainWorld("spillway", api);
