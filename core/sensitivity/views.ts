/**
 * The exits. Everything the model is given leaves through `modelView` (results passed through,
 * stubs, handles, fetch and recall answers, resources, hook answers); everything the operator is
 * shown (inspector pages, fetches run by hand, exports) through `operatorView`; whatever is
 * written under the home (call rows, ledger data, the search index, logs) through `storedView`.
 *
 * What each one masks:
 * - model: per `sensitivity.mode`: `mask` masks credential-shaped spans, except for the tools in
 *   `sensitivity.unmaskedTools` (their job is to return a secret); `audit` and `off` do not.
 * - operator: masked unless the operator asks to reveal, whatever the mode (the mode is about
 *   what the model gets; a screen or an exported file is shared more easily than a context).
 * - stored: always masked. The exact bytes live only in the blob, encrypted when credential.
 *
 * One cache of blob texts serves them all: the masked view of a blob (or the note that masking
 * changes nothing), and the exact text the inspector pages through, with line starts.
 */
import { matchesToolPattern } from "../config/config";
import { lineStarts } from "../text/lines";
import { findSecrets, maskFindings, type SecretFinding } from "./secrets";

export type SensitivityMode = "mask" | "audit" | "off";

export interface ViewPolicy {
  mode: SensitivityMode;
  /** Tools (exact names or `*` globs) whose results reach the model unmasked. */
  unmaskedTools: readonly string[];
}

/** A blob's text as a view holds it; `starts` (line starts, for paging) is computed on first use. */
export interface ViewText {
  readonly text: string;
  /** Whether masking replaced anything (false for a revealed view, or a text with no secret). */
  readonly masked: boolean;
  starts(): number[];
}

interface Entry {
  /** The text, or null for a masked variant that equals the exact text. */
  text: string | null;
  starts?: number[];
}

/** Chars the cache keeps across all its texts (line starts, about 8 bytes a line, come on top). */
const DEFAULT_BUDGET_CHARS = 256 * 1024 * 1024;

export class SensitiveViews {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(
    private readonly policy: ViewPolicy,
    private readonly budgetChars = DEFAULT_BUDGET_CHARS,
  ) {}

  /** Whether the model's view of `tool`'s output is masked. */
  masksFor(tool: string | null | undefined): boolean {
    if (this.policy.mode !== "mask") return false;
    return !tool || !this.policy.unmaskedTools.some((p) => matchesToolPattern(p, tool));
  }

  /** What the model may see of `text` coming from `tool` (null: Spillway's own words). */
  modelView(text: string, tool: string | null | undefined, findings?: readonly SecretFinding[]): string {
    return this.masksFor(tool) ? maskFindings(text, findings ?? findSecrets(text)).text : text;
  }

  /** What the model may see of blob `id` (its exact `text` in hand), cached per blob. */
  modelBlob(id: string, text: string, tool: string | null, findings?: readonly SecretFinding[]): string {
    return this.masksFor(tool) ? this.maskedBlob(id, text, findings) : text;
  }

  /** What may be written under the home: credential-shaped spans masked, in every mode. */
  storedView(text: string, findings?: readonly SecretFinding[]): string {
    return maskFindings(text, findings ?? findSecrets(text)).text;
  }

  /** What the operator is shown of `text`: masked unless `reveal`. */
  operatorView(text: string, reveal = false): string {
    return reveal ? text : this.storedView(text);
  }

  /** The masked text of blob `id`, from the cache or computed from `text` (and its findings, when known). */
  maskedBlob(id: string, text: string, findings?: readonly SecretFinding[]): string {
    const hit = this.get(maskedKey(id));
    if (hit) return hit.text ?? text;
    const masked = maskFindings(text, findings ?? findSecrets(text));
    this.set(maskedKey(id), { text: masked.count > 0 ? masked.text : null });
    return masked.text;
  }

  /**
   * The operator's view of blob `id` for paging: masked unless `reveal`. `load` reads the exact
   * text on a miss (null when the blob is gone). Both texts stay cached for the next page.
   */
  operatorBlob(id: string, reveal: boolean, load: () => string | null): ViewText | null {
    let exact = this.get(exactKey(id));
    if (!exact) {
      const text = load();
      if (text === null) return null;
      exact = this.set(exactKey(id), { text });
    }
    const exactText = exact.text!;
    const plain = view(exact, exactText, false);
    if (reveal) return plain;
    const masked = this.maskedBlob(id, exactText);
    if (masked === exactText) return plain;
    return view(this.get(maskedKey(id))!, masked, true);
  }

  /** Whether the exact text of `id` is cached (a pager then needs no head read). */
  hasText(id: string): boolean {
    return this.entries.has(exactKey(id));
  }

  /** Drops every cached view of a blob (purged, evicted, expired). */
  forget(id: string): void {
    for (const key of [exactKey(id), maskedKey(id)]) {
      const e = this.entries.get(key);
      if (!e) continue;
      this.entries.delete(key);
      this.chars -= size(e);
    }
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  private get(key: string): Entry | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  private set(key: string, entry: Entry): Entry {
    const n = size(entry);
    if (n > this.budgetChars) return entry; // one huge text: served, not kept
    while (this.entries.size > 0 && this.chars + n > this.budgetChars) {
      const [oldest, v] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldest);
      this.chars -= size(v);
    }
    this.entries.set(key, entry);
    this.chars += n;
    return entry;
  }
}

const exactKey = (id: string) => `${id}:exact`;
const maskedKey = (id: string) => `${id}:masked`;

function size(e: Entry): number {
  return e.text?.length ?? 0;
}

/** A ViewText over a cache entry; line starts are computed once and kept on the entry. */
function view(entry: Entry, text: string, masked: boolean): ViewText {
  return {
    text,
    masked,
    starts: () => (entry.starts ??= lineStarts(text)),
  };
}
