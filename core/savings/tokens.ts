/** Token counting with a real BPE tokenizer (o200k or cl100k), kept off the hot path for large texts. */
import { createRequire } from "node:module";

export type TokenizerName = "o200k_base" | "cl100k_base";

/** Tool output is data, not a prompt: special-token text counts as ordinary text. */
const OPTIONS = { disallowedSpecial: new Set<string>() };
/** Texts up to this size are counted inline; larger ones in slices with yields between them. */
const INLINE_MAX = 4 * 1024;
/**
 * Small slices: BPE cost grows faster than linearly with a run the pre-tokeniser cannot split
 * (measured on 256 K chars of CJK text without spaces: 1.8 s in 16 K slices, 0.12 s in 4 K ones),
 * and a cut changes the count by a token at most.
 */
const SLICE = 4 * 1024;
/**
 * Results up to this many chars are counted exactly; larger ones are estimated from a sample.
 * Counting costs at most about 0.35 s of CPU here (random base64, the worst text measured), and a
 * sample as much again, so no result, whatever its size, costs more than 2 s (issue 12).
 */
export const EXACT_TOKEN_MAX_CHARS = 256 * 1024;
/** The sample of a larger result: windows spread evenly from its start to its end. */
const SAMPLE_WINDOWS = 64;
const SAMPLE_WINDOW = 4 * 1024;

/** A token count, and whether it was extrapolated from a sample of the text rather than counted. */
export interface TokenMeasure {
  tokens: number;
  estimated: boolean;
}

export interface TokenCounter {
  readonly name: TokenizerName;
  /** Exact count, synchronously. For small texts. */
  count(text: string): number;
  /** Exact count of a large text in slices cut at whitespace, yielding to the event loop between slices. */
  countAsync(text: string): Promise<number>;
  /**
   * The count the ledger keeps: exact up to EXACT_TOKEN_MAX_CHARS, above it estimated from an
   * evenly spread sample (and marked so), so its cost does not grow with the text.
   */
  measure(text: string): Promise<TokenMeasure>;
}

type Encoding = { countTokens(text: string, options: typeof OPTIONS): number };
const load = createRequire(import.meta.url);
const loaded = new Map<TokenizerName, Encoding>();

/**
 * The BPE tables take a second or more to load, so only the configured one is loaded, and only
 * when the first count is asked for (a one-shot CLI command never pays for it).
 */
function encoding(name: TokenizerName): Encoding {
  let enc = loaded.get(name);
  if (!enc) {
    enc = load(`gpt-tokenizer/cjs/encoding/${name}`) as Encoding;
    loaded.set(name, enc);
  }
  return enc;
}

export function createTokenCounter(name: TokenizerName = "o200k_base"): TokenCounter {
  const count = (text: string): number => (text.length === 0 ? 0 : encoding(name).countTokens(text, OPTIONS));
  const countAsync = async (text: string): Promise<number> => {
    if (text.length <= INLINE_MAX) return count(text);
    let total = 0;
    for (const piece of slices(text, SLICE)) {
      total += count(piece);
      await yieldNow();
    }
    return total;
  };
  return {
    name,
    count,
    countAsync,
    async measure(text: string): Promise<TokenMeasure> {
      if (text.length <= EXACT_TOKEN_MAX_CHARS) return { tokens: await countAsync(text), estimated: false };
      let tokens = 0;
      let chars = 0;
      for (const piece of sample(text, SAMPLE_WINDOWS, SAMPLE_WINDOW)) {
        tokens += count(piece);
        chars += piece.length;
        await yieldNow();
      }
      return { tokens: chars === 0 ? 0 : Math.round((tokens / chars) * text.length), estimated: true };
    },
  };
}

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

/**
 * `windows` pieces of about `size` chars spread evenly over `text`, first at its start and last at
 * its end, each starting just after a cut point and ending at one (see `cutEnd`), so the sample
 * tokenizes as the same stretch of the whole text would.
 */
export function* sample(text: string, windows: number, size: number): Generator<string> {
  const span = Math.max(0, text.length - size);
  let from = 0;
  for (let k = 0; k < windows; k++) {
    let start = Math.max(from, Math.floor((span * k) / Math.max(1, windows - 1)));
    if (start > 0) start = cutEnd(text, Math.min(text.length, start + Math.floor(size / 8)), start);
    const end = cutEnd(text, Math.min(text.length, start + size), start + Math.floor((size * 7) / 8));
    if (end <= start) continue;
    yield text.slice(start, end);
    from = end;
  }
}

/**
 * Cuts text into slices of about `size` chars, each ending just after a whitespace character
 * where one is near, so that slicing changes the count by at most a token or so per slice.
 */
export function* slices(text: string, size: number): Generator<string> {
  let start = 0;
  while (start < text.length) {
    const end = cutEnd(text, Math.min(text.length, start + size), start + size - Math.floor(size / 8));
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * Where to cut `text` at or before `end` (not before `floor`): just after a newline that does not
 * start a run of newlines (BPE pre-tokenisers almost never merge across it, so the count is
 * usually exact), else after any whitespace, else at `end`; never inside a surrogate pair.
 */
function cutEnd(text: string, end: number, floor: number): number {
  if (end >= text.length) return text.length;
  // Looked for within [floor, end) only: lastIndexOf on the whole text would walk back through
  // all of a text without newlines (a minified JSON) once per slice.
  const from = Math.max(0, floor);
  const at = text.slice(from, end).lastIndexOf("\n");
  const nl = at === -1 ? -1 : from + at;
  if (nl >= floor && text[nl + 1] !== "\n" && text[nl - 1] !== "\n") end = nl + 1;
  else {
    let cut = end;
    while (cut > floor && !/\s/.test(text[cut - 1]!)) cut--;
    if (cut > floor) end = cut;
  }
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end + 1 : end;
}
