/**
 * The texts the inspector shows of a blob: the exact content, or the masked view (credential
 * spans replaced, as the model sees them) that a credential-labelled blob opens with.
 */
import { lineStarts } from "../../text/lines";
import type { Engine } from "../../engine/engineApi";
import { describeError } from "../../errors";
import { maskSecrets } from "../../sensitivity/secrets";
import type { BlobMeta } from "../../types";
import { ErrorCode, SpillwayError } from "../../errors";
import { TextCache, type CachedText } from "./textCache";

/** Whether the inspector opens this blob masked (the explicit reveal shows the exact bytes). */
export function isMaskable(meta: Pick<BlobMeta, "label">): boolean {
  return meta.label === "credential";
}

/** Blobs from this size are opened from the head of their file first. */
const HEAD_READ_MIN_BYTES = 8 * 1024 * 1024;

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
    const meta = this.engine.reader.meta(id);
    if (!meta) throw new SpillwayError(ErrorCode.NotFound, `There is no blob ${id} in this store.`);
    if (meta.state === "tombstoned") {
      const reason = this.engine.reader.blob(id)?.tombstoneReason ?? "removed";
      throw new SpillwayError(ErrorCode.NotFound, `Blob ${id} from ${meta.tool} is a tombstone (${reason}): its content is gone.`);
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
        const text = this.engine.reader.read(id);
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
    if (!view) throw new SpillwayError(ErrorCode.NotFound, `Blob ${id} has no content file any more (swept meanwhile?).`);
    return { meta, view, masked: mask };
  }

  /**
   * The first lines of a large plain blob, read from the head of its file, for the first page
   * of a viewer: opening a 50 MB blob then reads about what it shows, not 50 MB. Null when the
   * whole text is already cached, or the blob is small, encrypted or not UTF-8 (read it whole).
   */
  headView(id: string, lines: number): CachedText | null {
    const meta = this.engine.reader.meta(id);
    if (!meta || meta.bytes < HEAD_READ_MIN_BYTES || this.cache.has(id)) return null;
    try {
      const text = this.engine.reader.headLines(id, lines);
      return text === null ? null : { text, starts: lineStarts(text) };
    } catch (err) {
      this.engine.logger.warn("could not read the head of a blob file", { id, error: describeError(err) });
      return null;
    }
  }

  /** Reads and indexes the whole text off the current request, so the next page is instant. */
  warm(id: string): void {
    setImmediate(() => {
      try {
        this.view(id, false);
      } catch (err) {
        // gone meanwhile: the next request says so
        this.engine.logger.warn("could not warm a blob view", { id, error: describeError(err) });
      }
    });
  }

  /**
   * The first `maxChars` of a blob for previews, without reading a large plain file whole:
   * plain files are read from their head; encrypted ones (small credential results) are
   * decrypted whole and masked.
   */
  head(id: string, maxChars: number): { text: string; totalChars: number } | null {
    const meta = this.engine.reader.meta(id);
    if (!meta || meta.state === "tombstoned") return null;
    try {
      if (meta.encrypted || meta.chars <= maxChars * 4) {
        return { text: this.view(id, true).view.text.slice(0, maxChars), totalChars: meta.chars };
      }
      const text = this.engine.reader.headChars(id, maxChars);
      return text === null ? null : { text, totalChars: meta.chars };
    } catch (err) {
      this.engine.logger.warn("could not read a blob preview", { id, error: describeError(err) });
      return null;
    }
  }
}
