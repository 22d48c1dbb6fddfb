/**
 * Builds `window.spillway` from the contract's operation list: one method per operation, nested
 * by namespace (`blobs.list` → `api.blobs.list`). Pure, so it is tested under Node with a fake
 * invoke. The page gets only these functions: no ipcRenderer, no channel parameter.
 */
import type { InspectorApi, OpName, Pushed, Result } from "../../core/inspector/api/contract";
import { invokeChannel } from "../ipc/channels";

export type Invoke = (channel: string, request: unknown) => Promise<unknown>;
export type Subscribe = (listener: (e: Pushed) => void) => () => void;

function failure(message: string): Result<never> {
  return { ok: false, error: { code: "internal", message } };
}

export function buildInspectorApi(ops: readonly OpName[], invoke: Invoke, subscribe: Subscribe): InspectorApi {
  const api: Record<string, Record<string, (req: unknown) => Promise<unknown>>> = {};
  for (const op of ops) {
    const [ns, method, ...extra] = op.split(".");
    if (!ns || !method || extra.length || ns === "subscribe") throw new Error(`operation name "${op}" is not "namespace.method"`);
    const channel = invokeChannel(op);
    (api[ns] ??= {})[method] = async (req: unknown) => {
      try {
        // `undefined` crosses IPC as undefined; the schemas default it, so `{}` is not needed.
        return await invoke(channel, req);
      } catch (err) {
        // Only a missing handler or a torn-down window gets here: main answers errors as data.
        return failure(`the Spillway app did not answer ${op}: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
  }
  for (const ns of Object.values(api)) Object.freeze(ns);
  return Object.freeze({ ...api, subscribe: (listener: (e: Pushed) => void) => subscribe(listener) }) as unknown as InspectorApi;
}
