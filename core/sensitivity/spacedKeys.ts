/**
 * A key written as words in prose or a note: `heroku api key: 0123…`, `API Token = …`,
 * `secret key: …`. The scan's keys hold no blank, and one more alternative in its RE2 program
 * doubled the scan of minified code (its DFA outgrew RE2's memory), so this is one cheap regex
 * pass for ` key:`, ` token:`, ` secret:` (5 ms on 4.6 MB of minified code), then the word
 * before is checked and the value judged: it must look generated (`api key: see the dashboard`
 * is a sentence), as a bare `Bearer` value must, and not be a placeholder.
 */
import { isPlaceholderValue, looksRandom } from "./placeholders";
import { classifyKey, tokenTypeOf } from "./secretPatterns";
import type { SecretFinding } from "./secrets";

/** The last word and its separator: where a spaced key may end. */
const KEY_END = /[ \t](?:key|token|secret)[ \t]*[:=]/gi;
/** The word before it (the text before ends with the blank before the last word). */
const FIRST_WORD = /[^A-Za-z0-9_](api|access|secret|private|client|auth|signing|bearer|bot|refresh)[ \t]+$/i;
/** What follows the separator: blanks, an optional quote, then one run of token characters. */
const OPAQUE_VALUE = /[ \t]*["']?([A-Za-z0-9_+/=.~-]+)/y;
/** How far back the first word is looked for: a word and the blanks after it. */
const BEFORE = 32;

/** Findings for values after a two-word secret key (`api key:`, `api token =`, `secret key:`). */
export function findSpacedKeys(text: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  KEY_END.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = KEY_END.exec(text))) {
    const from = Math.max(0, m.index - BEFORE);
    // A blank stands in for the text's start, so the first word needs a boundary either way.
    const before = (from === 0 ? " " : "") + text.slice(from, m.index + 1);
    const first = FIRST_WORD.exec(before);
    if (!first) continue;
    OPAQUE_VALUE.lastIndex = m.index + m[0].length;
    const v = OPAQUE_VALUE.exec(text);
    if (!v) continue;
    const value = v[1]!;
    const end = OPAQUE_VALUE.lastIndex;
    const type = judge(`${first[1]!}_${m[0].replace(/[^A-Za-z]/g, "")}`, value);
    if (type) found.push({ type, start: end - value.length, end });
    KEY_END.lastIndex = end;
  }
  return found;
}

/** The type of a value after key `key` (`api_token`), or null: a placeholder, a flag, or not generated. */
function judge(key: string, value: string): string | null {
  if (isPlaceholderValue(value) || value.startsWith("-")) return null;
  const specific = tokenTypeOf(value);
  if (specific) return specific;
  return looksRandom(value) ? classifyKey(key) : null;
}
