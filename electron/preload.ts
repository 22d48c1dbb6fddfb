/**
 * The preload (sandboxed, CommonJS once bundled): exposes `window.spillway`, typed from the
 * inspector contract, and nothing else. ipcRenderer stays in here; the page gets only the
 * generated methods and a subscribe that passes event data, never the IPC event object.
 */
import { contextBridge, ipcRenderer } from "electron";
import { requestSchemas, type OpName, type Pushed } from "../core/inspector/api/contract";
import { EVENT_CHANNEL } from "./ipc/channels";
import { buildInspectorApi } from "./preload/buildApi";

const ops = Object.keys(requestSchemas) as OpName[];

const api = buildInspectorApi(
  ops,
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
