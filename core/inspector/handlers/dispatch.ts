/**
 * The one boundary helper every transport uses (HTTP routes now, Electron IPC later): checks the
 * operation name, parses the request with its schema, runs the handler, and turns any failure
 * into `{ ok: false, error: { code, message } }`. Nothing is thrown past it.
 */
import { describeError, SpillwayError } from "../../errors";
import type { Logger } from "../../runtime";
import { requestSchemas, type OpName, type Result } from "../api/contract";
import { InspectorFailure } from "../api/failure";
import type { Handlers } from "./handlers";

export function isOpName(op: string): op is OpName {
  return Object.hasOwn(requestSchemas, op);
}

export type Dispatch = (op: string, body: unknown) => Promise<Result<unknown>>;

export function createDispatch(handlers: Handlers, logger: Logger): Dispatch {
  return async (op, body) => {
    if (!isOpName(op)) return { ok: false, error: { code: "unknown_operation", message: `There is no inspector operation "${op.slice(0, 60)}".` } };
    const parsed = requestSchemas[op].safeParse(body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = issue.path.join(".");
      return { ok: false, error: { code: "bad_request", message: `${op}: ${path ? `"${path}": ` : ""}${issue.message}`, path } };
    }
    try {
      const handler = handlers[op] as (req: unknown) => unknown;
      return { ok: true, value: await handler(parsed.data) };
    } catch (err) {
      if (err instanceof InspectorFailure) return { ok: false, error: { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) } };
      if (err instanceof SpillwayError) return { ok: false, error: { code: err.code, message: err.message } };
      logger.error("inspector operation failed", { op, error: describeError(err) });
      return { ok: false, error: { code: "internal", message: `${op} failed inside Spillway: ${describeError(err)}` } };
    }
  };
}
