/**
 * Fetch arguments as the ledger may store them. A grep pattern or a search query can name a
 * secret by its bare value (`grep "keyboard-cat-5a40…"`), with no key or prefix a detector could
 * see. Two signs give it away, and the run is masked where either holds:
 * - the blob tells: the run occurs in the exact content but not in its masked view;
 * - the run looks generated: a long stretch (between `-`, `_`, `.` or `/`) mixing letters with
 *   digits (or both cases), and not the hex of a commit or a UUID (people grep for those, and
 *   they are ids, not keys). Names built of short parts (`MARKER-b200-1507`, `build-20241103-a9f3`,
 *   `user_42_session`) are what people grep for too; API keys carry a long random part.
 * Ordinary patterns (`error|failed`, `linker\s+failed`, `user_id`) are stored as written.
 */
import { maskJsonValue } from "./maskJson";

/** Runs shorter than this are ordinary words, found in masked and exact text alike. */
const MIN_RUN = 6;
const MARKER = "[masked:fetch_argument]";

/** The runs of `args`' strings that name a secret; `exact`/`masked`: the blob read, when there is one. */
export function fetchArgSecrets(args: Record<string, unknown>, exact = "", masked = exact): string[] {
  const runs = new Set<string>();
  maskJsonValue(args, (value) => {
    for (const run of literalRuns(value)) {
      if (looksGenerated(run) || (exact !== masked && exact.includes(run) && !masked.includes(run))) runs.add(run);
    }
    return value;
  });
  return [...runs];
}

/**
 * `value` (a text or a JSON value) with every run replaced by a marker: the arguments, and the
 * answers and messages that echo them (`No line matches /…/`). The same value when none occurs.
 */
export function redactRuns<T>(value: T, runs: readonly string[]): T {
  if (runs.length === 0) return value;
  const redact = (text: string) => runs.reduce((t, run) => t.replaceAll(run, MARKER), text);
  return typeof value === "string" ? (redact(value) as T) : maskJsonValue(value, redact);
}

/** `args` with every run that names a secret replaced; the same object when none does. */
export function storedFetchArgs(args: Record<string, unknown>, exact = "", masked = exact): Record<string, unknown> {
  return redactRuns(args, fetchArgSecrets(args, exact, masked));
}

/** The literal runs of a regular expression or a query: split on regex syntax and spaces. */
function literalRuns(value: string): string[] {
  return value.split(/\\[a-zA-Z]|[\\^$.|?*+()[\]{}\s"'=:,;]+/).filter((r) => r.length >= MIN_RUN);
}

function looksGenerated(run: string): boolean {
  if (run.length < 16 || /^[0-9a-f-]+$/i.test(run)) return false;
  return run.split(/[-_./]+/).some(randomLooking);
}

/** A stretch of a run that is not all commit or UUID hex: a hex part after a word (`keyboard-cat-5a40…`) counts. */
function randomLooking(run: string): boolean {
  if (run.length < 16) return false;
  const digit = /\d/.test(run);
  const upper = /[A-Z]/.test(run);
  const lower = /[a-z]/.test(run);
  return (digit && (upper || lower)) || (upper && lower && run.length >= 20);
}
