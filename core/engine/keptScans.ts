/**
 * The scans of big blobs that searches answered from while their index is being built, kept
 * until that index is done. A second search in that window would otherwise read and verify the
 * whole blob again and rescan it (about 100 ms per 10 MB); with the scan kept it costs only the
 * words it adds, and the background indexing takes the text from here instead of a second read.
 */
import { BlobScan } from "../search/scanSearch";
import type { Kind } from "../types";

/** Chars kept across all scans (exact text, plus the model's view when masking changed it). */
const DEFAULT_BUDGET_CHARS = 64 * 1024 * 1024;

interface Kept {
  exact: string;
  scan: BlobScan;
  chars: number;
}

export class KeptScans {
  private readonly kept = new Map<string, Kept>();
  private chars = 0;

  constructor(private readonly budgetChars = DEFAULT_BUDGET_CHARS) {}

  /** The kept scan of blob `id`, or a new one over `view` (the model's view of `exact`), kept when it fits. */
  scanOf(id: string, kind: Kind, exact: () => string, view: () => string): BlobScan {
    const hit = this.kept.get(id);
    if (hit) return hit.scan;
    const text = exact();
    const seen = view();
    const scan = new BlobScan(seen, kind);
    const chars = text.length + (seen === text ? 0 : seen.length);
    if (chars > this.budgetChars) return scan; // served, not kept
    // Oldest first: the blob asked for longest ago is the nearest to being indexed.
    for (const [old, k] of this.kept) {
      if (this.chars + chars <= this.budgetChars) break;
      this.drop(old, k);
    }
    this.kept.set(id, { exact: text, scan, chars });
    this.chars += chars;
    return scan;
  }

  /** The exact text a kept scan was made from, for the blob's indexing. */
  exactText(id: string): string | undefined {
    return this.kept.get(id)?.exact;
  }

  /** Forgets the scan of `id` (its index is done or failed, or the blob is gone). */
  forget(id: string): void {
    const k = this.kept.get(id);
    if (k) this.drop(id, k);
  }

  /** Whether a scan of `id` is kept. */
  has(id: string): boolean {
    return this.kept.has(id);
  }

  private drop(id: string, k: Kept): void {
    this.kept.delete(id);
    this.chars -= k.chars;
  }
}
