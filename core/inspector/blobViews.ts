/**
 * The texts the inspector shows of a blob: the exact content, or the masked view (credential
 * spans replaced, as the model sees them) that a credential-labelled blob opens with.
 */
import { openSync, readSync, closeSync } from "node:fs";
import type { Engine } from "../engine";
import { maskSecrets } from "../sensitivity/secrets";
import type { BlobMeta } from "../types";
import { InspectorFailure } from "./failure";
import { TextCache, type CachedText } from "./textCache";

/** Whether the inspector opens this blob masked (the explicit reveal shows the exact bytes). */
export function isMaskable(meta: Pick<BlobMeta, "label">): boolean {
  return meta.label === "credential";
}

export class BlobViews {
  readonly cache: TextCache;

  constructor(
    private readonly engine: Engine,
    cache?: TextCache,
  ) {
    this.cache = cache ?? new TextCache();
  }

  /** The live blob's metadata, or a not_found failure naming why it cannot be read. */
  liveMeta(id: string): BlobMeta {
    const meta = this.engine.store.meta(id);
    if (!meta) throw new InspectorFailure("not_found", `There is no blob ${id} in this store.`);
    if (meta.state === "tombstoned") {
      const reason = this.engine.store.row(id)?.tombstone_reason ?? "removed";
      throw new InspectorFailure("not_found", `Blob ${id} from ${meta.tool} is a tombstone (${reason}): its content is gone.`);
    }
    return meta;
  }

  /** The whole text, masked unless `reveal` (only credential blobs differ). */
  view(id: string, masked: boolean): { meta: BlobMeta; view: CachedText; masked: boolean } {
    const meta = this.liveMeta(id);
    const mask = masked && isMaskable(meta);
    const key = mask ? `${id}:masked` : id;
    const view = this.cache.get(key, () => {
      const text = this.engine.store.read(id);
      if (text === null) return null;
      return mask ? maskSecrets(text).text : text;
    });
    if (!view) throw new InspectorFailure("not_found", `Blob ${id} has no content file any more (swept meanwhile?).`);
    return { meta, view, masked: mask };
  }

  /**
   * The first `maxChars` of a blob for previews, without reading a large plain file whole:
   * plain files are read from their head; encrypted ones (small credential results) are
   * decrypted whole and masked.
   */
  head(id: string, maxChars: number): { text: string; totalChars: number } | null {
    const row = this.engine.store.row(id);
    if (!row || row.tombstoned_at !== null) return null;
    if (row.encrypted || row.chars <= maxChars * 4) {
      try {
        const v = this.view(id, true).view.text;
        return { text: v.slice(0, maxChars), totalChars: row.chars };
      } catch {
        return null;
      }
    }
    const unit = row.encoding === "utf16le" ? 2 : 4;
    const buf = Buffer.alloc(maxChars * unit);
    let fd: number | null = null;
    try {
      fd = openSync(this.engine.store.files.pathOf(id), "r");
      const n = readSync(fd, buf, 0, buf.length, 0);
      // maxChars*4 bytes hold more than maxChars UTF-16 units, so a sequence cut at the end lies past the slice.
      const text = buf.subarray(0, n).toString(row.encoding === "utf16le" ? "utf16le" : "utf8");
      return { text: text.slice(0, maxChars), totalChars: row.chars };
    } catch {
      return null;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
}
