/**
 * Turns a text into what a put takes: its encoding, size and id, and with `keep` its encoded
 * bytes, lent from one reused buffer when they fit (see encodeScratch.ts).
 */
import { encodedLength, encodedSlices, encodeText, encodingFor } from "./blobFiles";
import { EncodeScratch } from "./encodeScratch";
import type { ContentHasher } from "./integrity";
import type { PreparedText } from "./putTypes";

export class TextPreparer {
  private readonly scratch = new EncodeScratch();

  constructor(private readonly hasher: ContentHasher) {}

  /**
   * Encodes and hashes `text` once. With `keep`, the encoded bytes are kept for the write, so the
   * interception path encodes a result once, not twice: lent until the next `prepare(…, true)`.
   */
  prepare(text: string, keep: boolean): PreparedText {
    const encoding = encodingFor(text);
    if (!keep) {
      // Hashed slice by slice: the whole text is never encoded into one buffer just to get its id.
      return { text, encoding, bytes: encodedLength(text, encoding), id: this.hasher.id(encoding, encodedSlices(text, encoding)) };
    }
    const lent = encoding === "utf8" ? this.scratch.encode(text) : null;
    const encoded = lent ? lent.bytes : encodeText(text, encoding);
    return { text, encoding, bytes: encoded.length, id: this.hasher.id(encoding, [encoded]), encoded, lease: lent?.lease };
  }

  /** Throws when `prepared` holds lent bytes that a later `prepare` has since reused: never write them. */
  checkLease(prepared: PreparedText): void {
    if (prepared.lease !== undefined && !this.scratch.holds(prepared.lease)) {
      throw new Error(`the encoded bytes of ${prepared.id} were reused before they were written`);
    }
  }
}
