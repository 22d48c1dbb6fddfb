/**
 * The one coded error type of Spillway, and the one mapping of its codes to what each boundary
 * answers: HTTP statuses, JSON-RPC error codes, and `{ ok: false, error }` results for the
 * inspector (HTTP and IPC). Expected outcomes (no match, expired) are values, not errors.
 * No imports: the renderer may import the codes' type.
 */

/** Error codes. Each is thrown somewhere; a test keeps it so. */
export enum ErrorCode {
  /** A request at a boundary is malformed (not JSON, wrong shape). */
  BadRequest = "bad_request",
  /** One argument has a wrong value. */
  BadArgument = "bad_argument",
  BadConfig = "bad_config",
  /** Something that is not a Spillway id was given as one. */
  BadId = "bad_id",
  NotFound = "not_found",
  UnknownOperation = "unknown_operation",
  MethodNotAllowed = "method_not_allowed",
  Unauthorized = "unauthorized",
  Forbidden = "forbidden",
  /** This host cannot do that (e.g. stop the endpoint that serves the page). */
  Unsupported = "unsupported",
  TooLarge = "too_large",
  CannotDecrypt = "cannot_decrypt",
  /** A stored file no longer matches its id (damaged on disk). */
  Corrupt = "corrupt",
  StoreOpen = "store_open",
  StoreIo = "store_io",
  /** An upstream MCP server failed: it did not start, timed out, stopped or refused. */
  Upstream = "upstream",
  /** The inspector page could not reach its endpoint (it stopped, or the network between failed). */
  Unreachable = "unreachable",
  /** The caller cancelled the request. */
  Cancelled = "cancelled",
  Internal = "internal",
}

/** The string form of every code (what crosses a boundary). */
export type ErrorCodeName = `${ErrorCode}`;

/** The one coded error class. `message` is a sentence a person (or a model) can act on. */
export class SpillwayError extends Error {
  /** The offending field, when the error is about one (`filter.minChars`, `rescue.thresholdChars`). */
  readonly path: string | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; path?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SpillwayError";
    this.path = options?.path;
  }
}

/** A one-line description of any thrown value, for logs and CLI output. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const first = err.message.split("\n")[0] ?? "";
  // A first line that opens pretty-printed JSON ("Invalid result: [") says nothing alone: the whole, on one line.
  if (/[[{]\s*$/.test(first) && first.length < err.message.length) return err.message.replace(/\s+/g, " ").slice(0, 400);
  return first;
}

const HTTP_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.BadRequest]: 400,
  [ErrorCode.BadArgument]: 400,
  [ErrorCode.BadConfig]: 400,
  [ErrorCode.BadId]: 400,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.UnknownOperation]: 404,
  [ErrorCode.MethodNotAllowed]: 405,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.Unsupported]: 409,
  [ErrorCode.TooLarge]: 413,
  [ErrorCode.CannotDecrypt]: 500,
  [ErrorCode.Corrupt]: 500,
  [ErrorCode.StoreOpen]: 503,
  [ErrorCode.StoreIo]: 500,
  [ErrorCode.Upstream]: 502,
  [ErrorCode.Unreachable]: 503,
  [ErrorCode.Cancelled]: 499,
  [ErrorCode.Internal]: 500,
};

/** JSON-RPC error codes (MCP): -32600 invalid request, -32602 invalid params, -32603 internal. */
const JSONRPC_CODE: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.BadRequest]: -32600,
  [ErrorCode.BadArgument]: -32602,
  [ErrorCode.BadId]: -32602,
  [ErrorCode.NotFound]: -32602,
  [ErrorCode.UnknownOperation]: -32601,
  [ErrorCode.TooLarge]: -32600,
};

export function httpStatusOf(code: ErrorCode): number {
  return HTTP_STATUS[code];
}

export function jsonRpcCodeOf(code: ErrorCode): number {
  return JSONRPC_CODE[code] ?? -32603;
}

/** What a boundary answers for a failure: `{ code, message, path? }`. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  path?: string;
}

/**
 * Any thrown value as an error body. A SpillwayError keeps its code and sentence; anything else
 * is logged (with `context`) and answered as internal, so no failure is swallowed unlogged.
 */
export function errorBodyOf(err: unknown, log: { error(msg: string, data?: Record<string, unknown>): void }, context: string): ErrorBody {
  if (err instanceof SpillwayError) return { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) };
  log.error(`${context} failed`, { error: describeError(err) });
  return { code: ErrorCode.Internal, message: `${context} failed inside Spillway: ${describeError(err)}` };
}
