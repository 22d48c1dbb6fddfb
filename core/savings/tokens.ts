/** Token counting with a real BPE tokenizer (o200k or cl100k), kept off the hot path for large texts. */
import { createRequire } from "node:module";

export type TokenizerName = "o200k_base" | "cl100k_base";

/** Tool output is data, not a prompt: special-token text counts as ordinary text. */
const OPTIONS = { disallowedSpecial: new Set<string>() };
/** Texts up to this size are counted inline; larger ones in slices with yields between them. */
const INLINE_MAX = 64 * 1024;
const SLICE = 64 * 1024;

export interface TokenCounter {
  readonly name: TokenizerName;
  /** Exact count, synchronously. For small texts. */
  count(text: string): number;
  /** Count of a large text in slices cut at whitespace, yielding to the event loop between slices. */
  countAsync(text: string): Promise<number>;
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
  return {
    name,
    count,
    async countAsync(text: string): Promise<number> {
      if (text.length <= INLINE_MAX) return count(text);
      let total = 0;
      for (const piece of slices(text, SLICE)) {
        total += count(piece);
        await new Promise<void>((r) => setImmediate(r));
      }
      return total;
    },
  };
}

/**
 * Cuts text into slices of about `size` chars, each ending just after a whitespace character
 * where one is near, so that slicing changes the count by at most a token or so per slice.
 */
export function* slices(text: string, size: number): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      // Prefer cutting after a newline that does not start a run of newlines: BPE pre-tokenisers
      // almost never merge across it, so the count is usually exact. Else after any whitespace.
      const floor = end - Math.floor(size / 8);
      const nl = text.lastIndexOf("\n", end - 1);
      if (nl >= floor && text[nl + 1] !== "\n" && text[nl - 1] !== "\n") end = nl + 1;
      else {
        let cut = end;
        while (cut > floor && !/\s/.test(text[cut - 1]!)) cut--;
        if (cut > floor) end = cut;
      }
      // never split a surrogate pair
      const code = text.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end++;
    }
    yield text.slice(start, end);
    start = end;
  }
}
