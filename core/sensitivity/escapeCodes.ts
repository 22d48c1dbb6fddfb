/**
 * Terminal colour codes and URL escapes glued to a secret hide it from the patterns: `\x1b[32m`
 * ends in a letter and `token%3D` in a digit, so the `\b` a token starts with never holds
 * (`\x1b[32mghp_…`, `grep --color`'s `GITHUB_TOKEN=\x1b[01;31m\x1b[Kghp_…`, `%26token%3Dghp_…`).
 * The scan also reads a copy of the text with each code blanked out, character for character, so
 * a span found in the copy is the same span of the text, and what the text's own scan finds is kept.
 */

// CSI (colours, `\x1b[K`), OSC (titles, hyperlinks; ended by BEL or ST, or cut off), charset
// choices (`\x1b(B`) and the other two-character escapes. Linear: no class repeats into the next.
// eslint-disable-next-line no-control-regex
const ESCAPE_CODE = /\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[()*+][ -~]|[ -~]?)/y;
const URL_ESCAPE = /%[0-9A-Fa-f]{2}/y;
// A decoded `=`, `&` or `:` stays a separator, padded to the escape's three characters: `token=  ghp_…`
// still reads as an assignment (blanks may follow its `=`), and `&  ` still ends a value.
const URL_SEPARATORS: Record<string, number> = { "3d": 61, "26": 38, "3a": 58 };
const SPACE = 32;

/** `text` with terminal escape codes and `%XX` escapes blanked out, or null when it has none (the common case). */
export function withoutEscapeCodes(text: string): string | null {
  if (text.indexOf("\x1b") === -1 && text.indexOf("%") === -1) return null;
  // Blanked in place in a UTF-16 copy: a coloured 10 MB log has 300,000 codes, and a replace
  // callback (or a slice) per code costs more than the copy.
  let units: Uint16Array | null = null;
  // Each code found with indexOf and read with a sticky expression there (one alternation over the
  // whole text would be tried at every character).
  let esc = text.indexOf("\x1b");
  let pct = text.indexOf("%");
  while (esc !== -1 || pct !== -1) {
    const at = esc === -1 ? pct : pct === -1 ? esc : Math.min(esc, pct);
    const re = at === esc ? ESCAPE_CODE : URL_ESCAPE;
    re.lastIndex = at;
    const length = re.test(text) ? re.lastIndex - at : 0;
    if (length > 0) {
      units ??= utf16(text);
      units.fill(SPACE, at, at + length);
      if (re === URL_ESCAPE) units[at] = URL_SEPARATORS[text.slice(at + 1, at + 3).toLowerCase()] ?? SPACE;
    }
    const next = at + Math.max(length, 1);
    if (esc !== -1 && esc < next) esc = text.indexOf("\x1b", next);
    if (pct !== -1 && pct < next) pct = text.indexOf("%", next);
  }
  return units === null ? null : Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString("utf16le");
}

function utf16(text: string): Uint16Array {
  const bytes = Buffer.from(text, "utf16le");
  if (bytes.byteOffset % 2 === 0) return new Uint16Array(bytes.buffer, bytes.byteOffset, text.length);
  return new Uint16Array(Uint8Array.from(bytes).buffer); // a pooled small buffer at an odd offset
}

/** A stretch of the blanked copy: `text` stands at `start` in the original; findings whose value starts before `keepFrom` are not its own. */
export interface BlankedWindow {
  start: number;
  keepFrom: number;
  text: string;
}

// How far around a code a secret can reach: back to its key (or its line's start), on to its line's end.
const BEFORE = 384;
const AFTER = 1 << 16;
// A window cut inside a line starts with a false word boundary; what starts in its first chars is
// found by the window before or is not a secret of the code's (a key is never this long).
const CUT_MARGIN = 128;
// eslint-disable-next-line no-control-regex
const ANY_CODE = /\x1b|%[0-9A-Fa-f]{2}/g;

/**
 * The stretches of `text` around its codes, blanked (see withoutEscapeCodes): a secret hidden by a
 * code is within one. A 5 MB minified bundle with a few `%2F` in it is scanned again only around
 * them, not whole. Empty for a text without codes.
 */
export function blankedWindows(text: string): BlankedWindow[] {
  if (text.indexOf("\x1b") === -1 && text.indexOf("%") === -1) return [];
  const spans: { start: number; end: number; keepFrom: number }[] = [];
  ANY_CODE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ANY_CODE.exec(text))) {
    const at = m.index;
    const last = spans[spans.length - 1];
    if (last && at < last.end) continue; // already inside the previous window, which runs to its line's end
    // Searched within the window only: on a one-line text an unbounded search is a search of the whole text, per code.
    const from = Math.max(0, at - BEFORE);
    const nl = text.slice(from, at).lastIndexOf("\n");
    const lineStart = nl === -1 ? from : from + nl + 1;
    const cut = lineStart > 0 && text.charCodeAt(lineStart - 1) !== 10;
    const lineEnd = text.slice(at, at + AFTER).indexOf("\n");
    const end = lineEnd === -1 ? Math.min(text.length, at + AFTER) : at + lineEnd;
    if (last && lineStart <= last.end + 1)
      last.end = Math.max(last.end, end); // the next line: one window
    else spans.push({ start: lineStart, end, keepFrom: cut ? lineStart + CUT_MARGIN : lineStart });
    if (end > at) ANY_CODE.lastIndex = Math.max(ANY_CODE.lastIndex, end);
  }
  const windows: BlankedWindow[] = [];
  for (const w of spans) {
    const slice = text.slice(w.start, w.end);
    windows.push({ start: w.start, keepFrom: w.keepFrom, text: withoutEscapeCodes(slice) ?? slice });
  }
  return windows;
}
