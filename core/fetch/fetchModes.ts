/**
 * The fetch modes of `rescuer_fetch`: pure functions over a blob's text and metadata. The
 * engine resolves the id, checks the session, masks secrets and records the ledger; this
 * module only answers. It never throws for bad input: every problem is one sentence.
 */
import { SpillwayError, describeError } from "../errors";
import { clip, fail } from "./answer";
import { parseFetchArgs } from "./fetchArgs";
import type { FetchAnswer, FetchInput } from "./fetchTypes";
import { fullMode } from "./full";
import { chainMode, grepMode } from "./grep";
import { outlineMode } from "./outline";
import { queryMode } from "./query";
import { rangeMode } from "./range";
import { searchMode } from "./searchMode";
import { statMode } from "./stat";

export { FETCH_MODES } from "./fetchTypes";
export type { FetchMode, FetchLimits, FetchInput, FetchAnswer } from "./fetchTypes";
export { parseFetchArgs } from "./fetchArgs";
export type { FetchArgs, ParsedFetchArgs } from "./fetchArgs";

/** Longest description of an internal failure in an answer or a log line: a library's message may quote the model's whole input. */
const FAILURE_CHARS = 200;

/** `err`, or, when its message is too long to report, an error with the message cut (the original as its cause). */
function bounded(err: unknown): unknown {
  if (!(err instanceof Error) || err.message.length <= FAILURE_CHARS || err instanceof SpillwayError) return err;
  return new Error(clip(err.message, FAILURE_CHARS), { cause: err });
}

/** Runs one fetch mode over a resolved blob. A failure inside a mode is answered as a sentence and reported to `onFailure`. */
export function runFetch(mode: string, input: FetchInput, onFailure?: (err: unknown) => void): FetchAnswer {
  const parsed = parseFetchArgs(mode, input.args);
  if (!parsed.ok) return fail(parsed.message);
  try {
    switch (parsed.mode) {
      case "stat":
        return statMode(input);
      case "outline":
        return outlineMode(input);
      case "search":
        return searchMode(input, parsed.args);
      case "grep":
        return grepMode(input, parsed.args);
      case "chain":
        return chainMode(input, parsed.args);
      case "range":
        return rangeMode(input, parsed.args);
      case "query":
        return queryMode(input, parsed.args);
      case "full":
        return fullMode(input);
    }
  } catch (err) {
    // A bug or resource failure still answers as a sentence; the caller logs the details.
    onFailure?.(bounded(err));
    return fail(`Mode ${parsed.mode} failed on blob ${input.id}: ${clip(describeError(err), FAILURE_CHARS).replace(/[.\s]+$/, "")}.`);
  }
}
