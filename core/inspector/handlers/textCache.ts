/**
 * Blob texts the inspector is paging through, with their line starts, kept in a small LRU so
 * that scrolling a 50 MB blob reads and splits the file once, not once per page.
 */
import { lineStarts } from "../../text/lines";

export interface CachedText {
  text: string;
  /** Char offset of each line's start (the engine's line convention). */
  starts: number[];
}

/** Chars kept across all cached texts; one huge blob may exceed it alone and is then kept alone. */
const DEFAULT_BUDGET_CHARS = 256 * 1024 * 1024;

export class TextCache {
  private readonly entries = new Map<string, CachedText>();
  private chars = 0;

  constructor(private readonly budgetChars = DEFAULT_BUDGET_CHARS) {}

  /** The cached text for `key`, loading it with `load` on a miss; null when `load` has nothing. */
  get(key: string, load: () => string | null): CachedText | null {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const text = load();
    if (text === null) return null;
    const entry: CachedText = { text, starts: lineStarts(text) };
    while (this.entries.size > 0 && this.chars + text.length > this.budgetChars) {
      const [oldest, v] = this.entries.entries().next().value as [string, CachedText];
      this.entries.delete(oldest);
      this.chars -= v.text.length;
    }
    this.entries.set(key, entry);
    this.chars += text.length;
    return entry;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Drops every cached view of a blob (after a purge, or when its label changed). */
  forget(id: string): void {
    for (const [key, v] of this.entries) {
      if (key === id || key.startsWith(id + ":")) {
        this.entries.delete(key);
        this.chars -= v.text.length;
      }
    }
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }
}
