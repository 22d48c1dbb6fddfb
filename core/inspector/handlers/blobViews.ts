/**
 * The texts the inspector shows of a blob: the exact content, or the masked view (credential
 * spans replaced, as the model sees them) that a credential-labelled blob opens with.
 */
import { ErrorCode, SpillwayError } from "../../errors";
import { lineStarts } from "../../text/lines";
import type { Engine } from "../../engine/engine";
import { maskSecrets } from "../../sensitivity/secrets";
import type { BlobMeta } from "../../types";
import { InspectorFailure } from "../api/failure";
import { TextCache, type CachedText } from "./textCache";

/** Whether the inspector opens this blob masked (the explicit reveal shows the exact bytes). */
export function isMaskable(meta: Pick<BlobMeta, "label">): boolean {
  return meta.label === "credential";
}

/** Blobs from this size are opened from the head of their file first. */
const HEAD_READ_MIN_BYTES = 8 * 1024 * 1024;
const HEAD_CHUNK_BYTES = 1024 * 1024;
/** A head read gives up past this (lines that long are better read whole). */
const HEAD_READ_MAX_BYTES = 16 * 1024 * 1024;

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
    let view: CachedText | null;
    try {
      view = this.cache.get(key, () => {
        const text = this.engine.store.read(id);
        if (text === null) return null;
        return mask ? maskSecrets(text).text : text;
      });
    } catch (err) {
      // The store refuses damaged or undecryptable files; say so in one sentence, keep the code.
      if (err instanceof SpillwayError && (err.code === ErrorCode.Corrupt || err.code === ErrorCode.CannotDecrypt)) {
        throw new SpillwayError(err.code, `Blob ${id} from ${meta.tool} cannot be shown: ${err.message} Re-run ${meta.tool} to store it afresh, or run spillway sweep --deep to quarantine it.`);
      }
      throw err;
    }
    if (!view) throw new InspectorFailure("not_found", `Blob ${id} has no content file any more (swept meanwhile?).`);
    return { meta, view, masked: mask };
  }

  /**
   * The first lines of a large plain blob, read from the head of its file, for the first page
   * of a viewer: opening a 50 MB blob then reads about what it shows, not 50 MB. Null when the
   * whole text is already cached, or the blob is small, encrypted or not UTF-8 (read it whole).
   */
  headView(id: string, lines: number): CachedText | null {
    const row = this.engine.store.row(id);
    if (!row || row.tombstoned_at !== null || row.encrypted || row.encoding !== "utf8" || row.bytes < HEAD_READ_MIN_BYTES) return null;
    if (this.cache.has(id)) return null;
    try {
      const chunks: Buffer[] = [];
      let pos = 0;
      let newlines = 0;
      let cut = -1;
      // "\n" is never part of a multi-byte UTF-8 sequence, so cutting after one never splits a char.
      while (cut < 0) {
        // Verified reads: only the chunks read are checked, and damaged bytes are never shown.
        const chunk = this.engine.readRange(id, pos, HEAD_CHUNK_BYTES)?.bytes;
        if (!chunk || chunk.length === 0) break;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
          if (++newlines === lines) {
            cut = pos + i + 1;
            break;
          }
        }
        chunks.push(chunk);
        pos += chunk.length;
        if (pos > HEAD_READ_MAX_BYTES) return null;
      }
      if (cut < 0) return null;
      const text = Buffer.concat(chunks).subarray(0, cut).toString("utf8");
      return { text, starts: lineStarts(text) };
    } catch {
      return null;
    }
  }

  /** Reads and indexes the whole text off the current request, so the next page is instant. */
  warm(id: string): void {
    setImmediate(() => {
      try {
        this.view(id, false);
      } catch {
        /* gone meanwhile: the next request says so */
      }
    });
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
    try {
      const got = this.engine.readRange(id, 0, maxChars * unit);
      if (!got) return null;
      // maxChars*4 bytes hold more than maxChars UTF-16 units, so a sequence cut at the end lies past the slice.
      const text = got.bytes.toString(row.encoding === "utf16le" ? "utf16le" : "utf8");
      return { text: text.slice(0, maxChars), totalChars: row.chars };
    } catch {
      return null;
    }
  }
}
