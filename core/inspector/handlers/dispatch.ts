/**
 * The one boundary helper every transport uses (the web routes and Electron IPC): checks the
 * operation name, parses the request with its schema, runs the handler, and turns any failure
 * into `{ ok: false, error: { code, message } }`. Nothing is thrown past it.
 */
import { ErrorCode, errorBodyOf } from "../../errors";
import type { Logger } from "../../runtime";
import { requestSchemas, type OpName, type Result } from "../api/contract";
import type { Handlers } from "./handlers";

export function isOpName(op: string): op is OpName {
  return Object.hasOwn(requestSchemas, op);
}

export type Dispatch = (op: string, body: unknown) => Promise<Result<unknown>>;

export function createDispatch(handlers: Handlers, logger: Logger): Dispatch {
  return async (op, body) => {
    if (!isOpName(op))
      return { ok: false, error: { code: ErrorCode.UnknownOperation, message: `There is no inspector operation "${op.slice(0, 60)}".` } };
    const parsed = requestSchemas[op].safeParse(body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = issue.path.join(".");
      return { ok: false, error: { code: ErrorCode.BadRequest, message: `${op}: ${path ? `"${path}": ` : ""}${issue.message}`, path } };
    }
    try {
      const handler = handlers[op] as (req: unknown) => unknown;
      return { ok: true, value: await handler(parsed.data) };
    } catch (err) {
      return { ok: false, error: errorBodyOf(err, logger, op) };
    }
  };
}
