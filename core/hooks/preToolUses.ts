/**
 * What PreToolUse did to a call's arguments (the `spill:` expansions, the hook request and its
 * answer), kept by tool-use id until the same call's PostToolUse or PostToolUseFailure, which
 * records the call: the expansions are then tied to the call that received them, and the call's
 * raw record holds both hook exchanges.
 */

/** One PreToolUse that expanded or denied a reference. */
export interface PreToolUseRecord {
  request: unknown;
  answer: unknown;
  /** The ledger events of the expansions. */
  eventIds: number[];
}

type Kept = PreToolUseRecord & { at: number; chars: number };

/**
 * Tool-use id → its PreToolUse record, while the tool runs. Bounded in count and in chars (an
 * answer holds the expanded arguments, up to `passref.totalMaxChars`), oldest dropped first: a
 * call a permission rule denied never comes back for its record.
 */
export class PreToolUses {
  private readonly byId = new Map<string, Kept>();
  private chars = 0;

  constructor(
    private readonly max = 1_000,
    private readonly maxChars = 16_000_000,
    private readonly ttlMs = 60 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  record(toolUseId: string, r: PreToolUseRecord): void {
    this.drop(toolUseId);
    const chars = (JSON.stringify(r.request)?.length ?? 0) + (JSON.stringify(r.answer)?.length ?? 0);
    this.byId.set(toolUseId, { ...r, at: this.now(), chars });
    this.chars += chars;
    while (this.byId.size > 1 && (this.byId.size > this.max || this.chars > this.maxChars))
      this.drop(this.byId.keys().next().value as string);
  }

  /** The record of this tool use, once; null when none, or too old. */
  take(toolUseId: string | null): PreToolUseRecord | null {
    if (!toolUseId) return null;
    const r = this.byId.get(toolUseId);
    if (!r) return null;
    this.drop(toolUseId);
    return this.now() - r.at <= this.ttlMs ? { request: r.request, answer: r.answer, eventIds: r.eventIds } : null;
  }

  /** Records kept, for tests of the bound. */
  get size(): number {
    return this.byId.size;
  }

  private drop(id: string): void {
    const r = this.byId.get(id);
    if (!r) return;
    this.chars -= r.chars;
    this.byId.delete(id);
  }
}
