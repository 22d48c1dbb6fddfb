/**
 * Splits a byte stream into newline-delimited messages with a size cap. Each chunk is scanned once
 * and a line is joined once, when its newline arrives, so a 64 MB line costs O(n), not the
 * re-concatenation per chunk that made the SDK's reader quadratic. A line over the cap is not
 * buffered: only its first and last few KB are kept, so the caller can name the message in an
 * error, and reading resumes at the next line.
 */

/** The largest JSON-RPC message Spillway reads or accepts in one line or body: 64 MiB. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** How much of an oversized line is kept to find its id (ids sit at either end of a message). */
const KEEP_BYTES = 4096;

/** What is left of a line that went over the cap. */
export interface OversizedLine {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

export interface LineHandlers {
  line(line: Buffer): void;
  oversized(info: OversizedLine): void;
}

export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly handlers: LineHandlers,
    readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        if (start < chunk.length) this.append(chunk.subarray(start));
        return;
      }
      this.append(chunk.subarray(start, nl));
      this.finish();
      start = nl + 1;
    }
  }

  /** End of stream: a last line without its newline still counts. */
  end(): void {
    if (this.size > 0) this.finish();
  }

  /** Drops whatever is buffered (the stream closed). */
  clear(): void {
    this.reset();
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (!this.skipping && this.size + part.length > this.maxBytes) {
      this.skipping = true;
      this.head = firstBytes([...this.parts, part], KEEP_BYTES);
      this.tail = Buffer.alloc(0);
      this.parts = [];
    }
    this.size += part.length;
    if (!this.skipping) {
      this.parts.push(part);
      return;
    }
    // Copies, so the oversized line's chunks are not kept alive by a view into them.
    this.tail =
      part.length >= KEEP_BYTES
        ? Buffer.from(part.subarray(part.length - KEEP_BYTES))
        : Buffer.concat([this.tail, part]).subarray(-KEEP_BYTES);
  }

  private finish(): void {
    if (this.skipping) {
      const info = { bytes: this.size, head: this.head, tail: this.tail };
      this.reset();
      this.handlers.oversized(info);
      return;
    }
    let line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.reset();
    if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, -1);
    if (line.length === 0 || isBlank(line)) return;
    this.handlers.line(line);
  }

  private reset(): void {
    this.parts = [];
    this.size = 0;
    this.skipping = false;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
  }
}

/** The first `n` bytes of a list of chunks, copying only those. */
export function firstBytes(parts: Uint8Array[], n: number): Buffer {
  const out: Uint8Array[] = [];
  let got = 0;
  for (const p of parts) {
    if (got >= n) break;
    const take = p.subarray(0, n - got);
    out.push(take);
    got += take.length;
  }
  return Buffer.concat(out, got);
}

function isBlank(buf: Buffer): boolean {
  if (buf.length > 64) return false;
  for (const b of buf) if (b !== 32 && b !== 9 && b !== 13) return false;
  return true;
}
