/**
 * Registers one IPC handler per contract operation. Each checks the sender first, then hands the
 * payload to the inspector's one boundary helper (core/inspector/dispatch.ts), the same one the
 * web routes use: it parses the request with the operation's schema from the contract, runs the
 * host handler, and answers `{ ok: true, value } | { ok: false, error }`. Nothing is thrown
 * across IPC, so no stack trace reaches the renderer.
 */
import { requestSchemas, type OpName, type Result } from "../../core/inspector/api/contract";
import type { Dispatch } from "../../core/inspector/handlers/dispatch";
import type { IpcInvokeEvent, IpcMainPort } from "../ports";
import { invokeChannel } from "./channels";

export interface IpcDeps {
  dispatch: Dispatch;
  isTrustedSender(event: IpcInvokeEvent): boolean;
}

const OPS = Object.keys(requestSchemas) as OpName[];

/** Handles one invocation; exported so tests can drive it without an ipcMain. */
export async function handleInvoke(op: OpName, deps: IpcDeps, event: IpcInvokeEvent, raw: unknown): Promise<Result<unknown>> {
  if (!deps.isTrustedSender(event)) {
    return { ok: false, error: { code: "forbidden", message: `${op} may only be called by the Spillway window.` } };
  }
  return deps.dispatch(op, raw);
}

/** Registers every operation's handler; returns the undo (used on quit and by tests). */
export function setupIpc(electron: { ipcMain: IpcMainPort }, deps: IpcDeps): () => void {
  for (const op of OPS) {
    electron.ipcMain.handle(invokeChannel(op), (event, raw) => handleInvoke(op, deps, event, raw));
  }
  return () => {
    for (const op of OPS) electron.ipcMain.removeHandler(invokeChannel(op));
  };
}
