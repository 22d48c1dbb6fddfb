/**
 * The texts the inspector shows of a blob, all through the engine's operator view: masked unless
 * the operator reveals them (the explicit reveal shows the exact bytes). Paging, previews and
 * exports read through it; the engine keeps the one cache of these texts.
 */
import { lineStarts } from "../../text/lines";
import type { Engine } from "../../engine/engineApi";
import { describeError, ErrorCode, SpillwayError } from "../../errors";
import type { ViewText } from "../../sensitivity/views";
import type { BlobMeta } from "../../types";
import type { CachedText } from "./contentPage";

/** Whether the inspector offers a reveal for this blob (the masked view of any other one shows its bytes as they are). */
export function isMaskable(meta: Pick<BlobMeta, "label">): boolean {
  return meta.label === "credential";
}

export class BlobViews {
  constructor(private readonly engine: Engine) {}

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

  /** The whole text, masked unless `masked` is false; `masked` in the answer says whether masking changed anything. */
  view(id: string, masked: boolean): { meta: BlobMeta; view: CachedText; masked: boolean } {
    const meta = this.liveMeta(id);
    let v: ViewText | null;
    try {
      v = this.engine.operatorBlob(id, !masked);
    } catch (err) {
      // The store refuses damaged or undecryptable files; say so in one sentence, keep the code.
      if (err instanceof SpillwayError && (err.code === ErrorCode.Corrupt || err.code === ErrorCode.CannotDecrypt)) {
        throw new SpillwayError(
          err.code,
          `Blob ${id} from ${meta.tool} cannot be shown: ${err.message} Re-run ${meta.tool} to store it afresh, or run spillway sweep --deep to quarantine it.`,
        );
      }
      throw err;
    }
    if (!v) throw new SpillwayError(ErrorCode.NotFound, `Blob ${id} has no content file any more (swept meanwhile?).`);
    return { meta, view: { text: v.text, starts: v.starts() }, masked: v.masked };
  }

  /**
   * The first lines of a large plain blob, read from the head of its file, for the first page
   * of a viewer: opening a 50 MB blob then reads about what it shows, not 50 MB. Null when the
   * whole text is already cached, or the blob is small, encrypted or not UTF-8 (read it whole).
   */
  headView(id: string, lines: number, masked: boolean): { view: CachedText; masked: boolean } | null {
    try {
      const head = this.engine.operatorHeadLines(id, lines, !masked);
      return head && { view: { text: head.text, starts: lineStarts(head.text) }, masked: head.masked };
    } catch (err) {
      this.engine.logger.warn("could not read the head of a blob file", { id, error: describeError(err) });
      return null;
    }
  }

  /** Reads the whole text off the current request, so the next page is instant. */
  warm(id: string, masked: boolean): void {
    setImmediate(() => {
      try {
        this.view(id, masked);
      } catch (err) {
        // gone meanwhile: the next request says so
        this.engine.logger.warn("could not warm a blob view", { id, error: describeError(err) });
      }
    });
  }

  /** The first `maxChars` of a blob for previews, masked; null when it cannot be read. */
  head(id: string, maxChars: number): { text: string; totalChars: number } | null {
    try {
      return this.engine.operatorHead(id, maxChars);
    } catch (err) {
      this.engine.logger.warn("could not read a blob preview", { id, error: describeError(err) });
      return null;
    }
  }
}
