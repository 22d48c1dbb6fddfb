/**
 * One buffer, reused, that the interception path encodes a result into. A new buffer per
 * result cost more than the encoding itself: past glibc's mmap threshold the allocator often
 * hands out fresh pages, and a 191 KB result then took 47 page faults, about 0.8 ms on this
 * kind of VM, against 0.02 ms to encode it into pages already mapped.
 *
 * The bytes are lent, not given: they stay valid until the next `encode`. Only a caller that
 * is done with them before it returns (the synchronous interception path, one call at a time)
 * may take them, and the store checks the lease before it writes them.
 */

/** The scratch grows up to this many bytes; longer results are encoded into a buffer of their own. */
export const SCRATCH_MAX_BYTES = 4 << 20;
/** It starts at this size (a result just over the default threshold fits). */
const SCRATCH_MIN_BYTES = 64 << 10;

const encoder = new TextEncoder();

export interface LentBytes {
  bytes: Buffer;
  /** Which encode lent them: `EncodeScratch.holds(lease)` is false once another encode has reused the buffer. */
  lease: number;
}

export class EncodeScratch {
  private buf: Buffer | null = null;
  private lease = 0;

  /**
   * The UTF-8 bytes of a well-formed `text` in the scratch, or null when they may not fit (then
   * nothing is lent). Every call ends the previous lease. The scratch is grown ahead to three
   * bytes a char while that stays under the cap, so a result up to a third of it fits in one try.
   */
  encode(text: string): LentBytes | null {
    this.lease++;
    const worst = text.length * 3;
    if (text.length > SCRATCH_MAX_BYTES) return null;
    const want = Math.min(SCRATCH_MAX_BYTES, Math.max(SCRATCH_MIN_BYTES, worst));
    if (this.buf === null || this.buf.length < want) {
      let size = SCRATCH_MIN_BYTES;
      while (size < want) size *= 2;
      this.buf = Buffer.allocUnsafeSlow(Math.min(size, SCRATCH_MAX_BYTES));
    }
    // A text of many multi-byte chars near the cap may not fit: it is then not lent at all.
    const { read, written } = encoder.encodeInto(text, this.buf);
    if (read !== text.length) return null;
    return { bytes: this.buf.subarray(0, written), lease: this.lease };
  }

  /** Whether the bytes lent under `lease` are still what that encode wrote. */
  holds(lease: number): boolean {
    return lease === this.lease;
  }
}
