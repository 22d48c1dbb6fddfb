/** Small text helpers shared by the rescue module. */

/** `1234567` → `"1,234,567"`; written by hand so output never depends on the host locale. */
export function fmtInt(n: number): string {
  const neg = n < 0;
  const s = String(Math.trunc(Math.abs(n)));
  let out = "";
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ",";
    out += s[i];
  }
  return neg ? "-" + out : out;
}

/** Largest cut index <= `end` that does not split a surrogate pair. */
export function safeEnd(text: string, end: number): number {
  if (end <= 0 || end >= text.length) return Math.max(0, Math.min(end, text.length));
  const c = text.charCodeAt(end - 1);
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

/** Smallest cut index >= `start` that does not split a surrogate pair. */
export function safeStart(text: string, start: number): number {
  if (start <= 0 || start >= text.length) return Math.max(0, Math.min(start, text.length));
  const c = text.charCodeAt(start);
  return c >= 0xdc00 && c <= 0xdfff ? start + 1 : start;
}

/** First `max` chars of `s` (an ellipsis included) without splitting a surrogate pair. */
export function clipEnd(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 0) return "";
  return s.slice(0, safeEnd(s, max - 1)) + "…";
}

/** Last `max` chars of `s` (an ellipsis included) without splitting a surrogate pair. */
export function clipStart(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 0) return "";
  return "…" + s.slice(safeStart(s, s.length - (max - 1)));
}

/**
 * One display line: control characters (NUL, CR, tabs…) become spaces so a preview never
 * carries terminal escapes or breaks the line structure the budget relies on.
 */
export function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, " ");
}

/** Index of the first char that is not whitespace (or a BOM), or `text.length`. */
export function skipWs(text: string, from = 0): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff) i++;
    else break;
  }
  return i;
}

/** Index just past the last char that is not whitespace, or `from`. */
export function trimEndIndex(text: string, from = 0): number {
  let j = text.length;
  while (j > from) {
    const c = text.charCodeAt(j - 1);
    if (c === 32 || c === 10 || c === 13 || c === 9) j--;
    else break;
  }
  return j;
}
