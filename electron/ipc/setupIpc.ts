/**
 * Registers one IPC handler per contract operation. Each one checks the sender, parses the
 * payload with the operation's schema from the contract, calls the same host handler the web
 * routes use, and answers `{ ok: true, value } | { ok: false, error }`; it never throws, so no
 * stack trace crosses into the renderer.
 */
import { requestSchemas, type InspectorError, type OpName, type ParsedReq, type Res, type Result } from "../../core/inspector/contract";
import { SpillwayError } from "../../core/errors";
import { InspectorFailure } from "../../core/inspector/failure";
import type { IpcInvokeEvent, IpcMainPort } from "../ports";
import { invokeChannel } from "./channels";

/** One handler per operation, given the parsed request. */
export type OperationHandlers = { [K in OpName]: (req: ParsedReq<K>) => Promise<Res<K>> | Res<K> };

export interface IpcDeps {
  handlers: OperationHandlers;
  isTrustedSender(event: IpcInvokeEvent): boolean;
  onError?(op: OpName, err: unknown): void;
}

const OPS = Object.keys(requestSchemas) as OpName[];

/** Expected failures keep their code and sentence; anything else is logged and answered generically. */
function toError(err: unknown): InspectorError {
  if (err instanceof InspectorFailure) return { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) };
  if (err instanceof SpillwayError) return { code: err.code, message: err.message };
  return { code: "internal", message: "Spillway failed to answer this request; the details are in its log." };
}

/** Handles one invocation; exported so tests can drive it without an ipcMain. */
export async function handleInvoke<K extends OpName>(op: K, deps: IpcDeps, event: IpcInvokeEvent, raw: unknown): Promise<Result<Res<K>>> {
  if (!deps.isTrustedSender(event)) {
    return { ok: false, error: { code: "forbidden", message: `${op} may only be called by the Spillway window.` } };
  }
  const parsed = requestSchemas[op].safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") || undefined;
    const message = `${op}: ${path ? `${path}: ` : ""}${issue?.message ?? "the request is not valid"}.`;
    return { ok: false, error: { code: "bad_request", message, ...(path ? { path } : {}) } };
  }
  try {
    const handler = deps.handlers[op] as (req: ParsedReq<K>) => Promise<Res<K>> | Res<K>;
    return { ok: true, value: await handler(parsed.data as ParsedReq<K>) };
  } catch (err) {
    const error = toError(err);
    if (error.code === "internal") deps.onError?.(op, err);
    return { ok: false, error };
  }
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
