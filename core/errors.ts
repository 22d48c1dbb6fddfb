/** Error codes of the engine. Expected outcomes (no match, expired) are values, not errors. */
export enum ErrorCode {
  BadConfig = "bad_config",
  BadArgument = "bad_argument",
  BadId = "bad_id",
  UnknownId = "unknown_id",
  WrongSession = "wrong_session",
  Expired = "expired",
  BadPattern = "bad_pattern",
  TooLarge = "too_large",
  CannotDecrypt = "cannot_decrypt",
  /** A stored file no longer matches its id (damaged on disk). */
  Corrupt = "corrupt",
  StoreOpen = "store_open",
  StoreIo = "store_io",
  Denied = "denied",
  Upstream = "upstream",
  Internal = "internal",
}

/** The one coded error class of the engine. `message` is a sentence a person (or a model) can act on. */
export class SpillwayError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SpillwayError";
  }
}

/** A one-line description of any thrown value, for logs and CLI output. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message.split("\n")[0] ?? String(err);
  return String(err);
}
