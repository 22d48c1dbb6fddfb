/**
 * Files kept beside a blob's: its line index (reads by offset without reading the whole
 * blob) and answers worth keeping (its outline). Only for blobs whose exact text is what the
 * model sees and whose bytes are plaintext: not encrypted, not credential, UTF-8. Their size is
 * counted in the size cap (`aux_bytes`) and they go with the blob.
 */
import { ErrorCode, SpillwayError } from "../errors";
import type { TextDoc } from "../text/textDoc";
import { AUX_KINDS, type AuxKind, type BlobFiles } from "./blobFiles";
import type { BlobReader } from "./blobReader";
import { blobTextDoc } from "./blobText";
import type { Db } from "./db";
import { buildLineIndex, parseLineIndex, type LineIndex } from "./lineIndex";
import type { BlobRow } from "./rows";
import { stmt } from "./statements";

/** Whether a blob may be read in parts and have answers kept beside it. */
export function readsInParts(r: BlobRow): boolean {
  return r.tombstoned_at === null && !r.encrypted && r.encoding === "utf8" && r.label !== "credential";
}

export class BlobAux {
  constructor(
    private readonly db: Db,
    private readonly files: BlobFiles,
    private readonly reader: BlobReader,
    private readonly rowOf: (id: string) => BlobRow | undefined,
  ) {}

  /**
   * A live blob's exact text read a window at a time (verified by the chunks read), through its
   * line index; null when it cannot be read in parts (encrypted, credential, UTF-16: read it
   * whole then) or has no file. Throws as BlobStore.read does.
   */
  textDoc(id: string): TextDoc | null {
    const r = this.rowOf(id);
    if (!r || !readsInParts(r)) return null;
    const index = this.lineIndex(r);
    if (!index) return null;
    return blobTextDoc(index, (start, length) => {
      const got = this.reader.range(r, start, length);
      if (!got) throw new SpillwayError(ErrorCode.NotFound, `${r.id} has no file any more: re-run ${r.tool} to get it again.`);
      return got.bytes;
    });
  }

  /** Builds a live blob's line index from its exact text in hand, unless it has one: its first range then reads no more than the later ones. */
  buildLineIndex(id: string, text: string): void {
    const r = this.rowOf(id);
    if (!r || !readsInParts(r) || r.chars !== text.length) return;
    const data = this.files.readAux(id, "lines");
    if (!data || !parseLineIndex(data, r.chars, r.bytes)) this.keep(id, "lines", buildLineIndex(text).data);
  }

  /** A kept file (not the line index) of a live blob; null when there is none or the blob cannot keep any. */
  get(id: string, kind: Exclude<AuxKind, "lines">): Buffer | null {
    const r = this.rowOf(id);
    return r && readsInParts(r) ? this.files.readAux(id, kind) : null;
  }

  /** Keeps `data` beside a live blob that may keep it, counted in the size cap. */
  put(id: string, kind: Exclude<AuxKind, "lines">, data: Buffer): void {
    const r = this.rowOf(id);
    if (r && readsInParts(r)) this.keep(id, kind, data);
  }

  /** Removes every file kept beside the blob (it was tombstoned, or became credential). */
  remove(id: string): void {
    this.files.removeAux(id);
    stmt(this.db, "UPDATE blobs SET aux_bytes = 0 WHERE id = ?").run(id);
  }

  private lineIndex(r: BlobRow): LineIndex | null {
    const data = this.files.readAux(r.id, "lines");
    const kept = data ? parseLineIndex(data, r.chars, r.bytes) : null;
    if (kept) return kept;
    // Built once from the verified text: the first read in parts of a blob reads it whole.
    const text = this.reader.text(r);
    if (text === null) return null;
    const built = buildLineIndex(text);
    try {
      this.keep(r.id, "lines", built.data);
    } catch {
      // Not kept (disk full, read-only home): this read still uses it, the next builds it again.
    }
    return built.index;
  }

  private keep(id: string, kind: AuxKind, data: Buffer): void {
    this.files.writeAux(id, kind, data);
    let total = 0;
    for (const k of AUX_KINDS) total += this.files.auxSize(id, k);
    const changed = stmt(this.db, "UPDATE blobs SET aux_bytes = ? WHERE id = ? AND tombstoned_at IS NULL").run(total, id).changes;
    // Tombstoned meanwhile (another process evicted it): nothing is kept for a blob that is gone.
    if (changed === 0) this.files.removeAux(id);
  }
}
