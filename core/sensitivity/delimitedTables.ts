/**
 * A CSV or TSV export names its secret column once, in its header (`id,user,password`), and its
 * values stand bare on the rows below (`1,alice,Pw0rd-9xQ!z`), where no pattern sees a key. So a
 * line that reads as a header (comma, tab, semicolon or pipe between plain names) with a column
 * named like a secret (the scan's own key vocabulary) marks that column's field in each row after
 * it with as many fields, up to a blank line or a row of another width. Each field is judged by
 * the scan's rules for a quoted `name="value"` (`judge`), so placeholders, references and empty
 * fields stay. A Markdown table's `|---|` row is one more row, its dashes a placeholder.
 *
 * Cheap where no table is: one case-insensitive regex pass for the secret words, and each line
 * holding one read at most once (the walk moves past the line, or past the table it heads).
 */
import type { SecretFinding } from "./secrets";

/** The judged type of `value` under column `name` (a normalized key), or null for no secret. */
export type FieldJudge = (name: string, value: string) => string | null;

/** A cheap superset of the secret words: only the lines holding one are read as a header. */
const SECRET_WORD = /pass|pwd|secret|token|key|cred|auth|totp/gi;
/** Longest header line read, widest table and longest field name: longer is not a header. */
const MAX_HEADER = 4096;
const MAX_COLUMNS = 256;
const MAX_NAME = 64;
/** A column name: words of identifier characters, at most four (`Api Key`, `client secret`). */
const NAME = /^[A-Za-z_][\w.#/-]*(?: [\w.#/-]+){0,3}$/;
const DELIMITERS = [",", "\t", ";", "|"] as const;

interface Field {
  /** The field's content: inside its quotes when quoted, blanks around it left out. */
  start: number;
  end: number;
  quoted: boolean;
}

/** Findings for the secret columns of delimited tables in `text`. */
export function findDelimitedTables(text: string, isSecretName: (name: string) => boolean, judge: FieldJudge): SecretFinding[] {
  const found: SecretFinding[] = [];
  if (text.indexOf(",") === -1 && text.indexOf("\t") === -1 && text.indexOf(";") === -1 && text.indexOf("|") === -1) return found;
  SECRET_WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SECRET_WORD.exec(text))) {
    const lineStart = text.lastIndexOf("\n", m.index) + 1;
    const lineEnd = endOfLine(text, m.index);
    // The walk goes on after this line, or after the table it heads: each line is read once.
    SECRET_WORD.lastIndex = Math.max(SECRET_WORD.lastIndex, tableAt(text, lineStart, lineEnd, isSecretName, judge, found));
  }
  return found;
}

/** Where the line holding `at` ends (its `\n`, or the text's end). */
function endOfLine(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl === -1 ? text.length : nl;
}

/** The table headed by the line [start, end), its findings added to `found`; where the walk resumes. */
function tableAt(
  text: string,
  start: number,
  end: number,
  isSecretName: (name: string) => boolean,
  judge: FieldJudge,
  found: SecretFinding[],
): number {
  if (end - start > MAX_HEADER) return end;
  const header = headerOf(text, start, end, isSecretName);
  if (!header) return end;
  let rowStart = end + 1;
  while (rowStart < text.length) {
    const rowEnd = endOfLine(text, rowStart);
    const fields = splitRow(text, rowStart, trimCr(text, rowStart, rowEnd), header.delimiter);
    if (!fields || fields.length !== header.width) return rowStart;
    for (const [column, name] of header.secret) {
      const f = fields[column]!;
      if (f.end <= f.start) continue;
      const raw = text.slice(f.start, f.end);
      const type = judge(name, f.quoted ? raw.replaceAll('""', '"') : raw);
      if (type) found.push({ type, start: f.start, end: f.end });
    }
    rowStart = rowEnd + 1;
  }
  return text.length;
}

interface Header {
  delimiter: string;
  width: number;
  /** Column index and its name, normalized to a key (`Api Key` → `Api_Key`), for each secret column. */
  secret: [number, string][];
}

/** The line [start, end) read as a table header with a secret column, or null. */
function headerOf(text: string, start: number, end: number, isSecretName: (name: string) => boolean): Header | null {
  const line = text.slice(start, trimCr(text, start, end));
  // The delimiter is the one the header uses most (a name never holds one).
  let delimiter = "";
  let most = 0;
  for (const d of DELIMITERS) {
    const n = line.split(d).length - 1;
    if (n > most) [delimiter, most] = [d, n];
  }
  if (most === 0 || most >= MAX_COLUMNS) return null;
  const fields = splitRow(text, start, start + line.length, delimiter);
  if (!fields) return null;
  const secret: [number, string][] = [];
  let named = 0;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const name = text.slice(f.start, f.end);
    // A Markdown table's outer pipes leave an empty first and last field.
    if (name === "" && delimiter === "|" && (i === 0 || i === fields.length - 1)) continue;
    if (name.length > MAX_NAME || !NAME.test(name)) return null;
    named++;
    const key = name.replace(/[ -]+/g, "_");
    if (isSecretName(key)) secret.push([i, key]);
  }
  return secret.length > 0 && named >= 2 ? { delimiter, width: fields.length, secret } : null;
}

/** The end of [start, end) without a trailing `\r`. */
function trimCr(text: string, start: number, end: number): number {
  return end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
}

const isBlank = (c: number) => c === 32 || c === 9;

/**
 * The fields of the row [start, end) split at `delimiter`, a quoted field (`"a,b"`, `""` for a
 * quote) read as one; null for a blank row or a quote left open (a row of something else).
 */
function splitRow(text: string, start: number, end: number, delimiter: string): Field[] | null {
  const d = delimiter.charCodeAt(0);
  const fields: Field[] = [];
  let i = start;
  let blank = true;
  for (;;) {
    // A tab is a blank around a field only where it is not the delimiter.
    while (i < end && text.charCodeAt(i) !== d && isBlank(text.charCodeAt(i))) i++;
    if (i < end && text.charCodeAt(i) === 34) {
      const open = i + 1;
      let j = open;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q === -1 || q >= end) return null;
        if (text.charCodeAt(q + 1) === 34 && q + 1 < end) {
          j = q + 2;
          continue;
        }
        fields.push({ start: open, end: q, quoted: true });
        i = q + 1;
        break;
      }
      blank = false;
      while (i < end && text.charCodeAt(i) !== d && isBlank(text.charCodeAt(i))) i++;
      if (i < end && text.charCodeAt(i) !== d) return null; // text after a closing quote: not CSV
    } else {
      const from = i;
      while (i < end && text.charCodeAt(i) !== d) i++;
      let to = i;
      while (to > from && isBlank(text.charCodeAt(to - 1))) to--;
      if (to > from) blank = false;
      fields.push({ start: from, end: to, quoted: false });
    }
    if (i >= end) break;
    i++; // the delimiter
    if (fields.length > MAX_COLUMNS) return null;
  }
  return blank ? null : fields;
}
