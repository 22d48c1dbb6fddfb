/**
 * RFC 4180 records of a delimited text, one at a time, with the 0-based line each starts on.
 * Quoted fields may hold delimiters, doubled quotes and newlines, which is why a plain split
 * on lines would miscount rows. Blank lines are skipped.
 */

export interface CsvRecord {
  fields: string[];
  line: number;
}

export function* csvRecords(text: string, delim: string): Generator<CsvRecord> {
  const d = delim.charCodeAt(0);
  const n = text.length;
  let pos = 0;
  let line = 0;
  while (pos < n) {
    const startLine = line;
    const fields: string[] = [];
    for (;;) {
      let value: string;
      if (text.charCodeAt(pos) === 34) {
        // Quoted field: up to the quote not followed by another quote.
        let j = pos + 1;
        let buf = "";
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) {
            buf += text.slice(j);
            j = n;
            break;
          }
          buf += text.slice(j, q);
          if (text.charCodeAt(q + 1) === 34) {
            buf += '"';
            j = q + 2;
          } else {
            j = q + 1;
            break;
          }
        }
        for (let k = text.indexOf("\n", pos); k !== -1 && k < j; k = text.indexOf("\n", k + 1)) line++;
        value = buf;
        // Anything between the closing quote and the delimiter is kept, as lenient readers do.
        let e = j;
        while (e < n && text.charCodeAt(e) !== d && text.charCodeAt(e) !== 10) e++;
        value += text.slice(j, e).replace(/\r$/, "");
        pos = e;
      } else {
        let e = pos;
        let c = text.charCodeAt(e);
        while (e < n && c !== d && c !== 10) c = text.charCodeAt(++e);
        value = text.slice(pos, e);
        if (value.endsWith("\r") && (e >= n || c === 10)) value = value.slice(0, -1);
        pos = e;
      }
      fields.push(value);
      if (pos < n && text.charCodeAt(pos) === d) {
        pos++;
        continue;
      }
      // End of record: a newline or the end of the text.
      pos++;
      line++;
      break;
    }
    if (fields.length === 1 && fields[0] === "") continue;
    yield { fields, line: startLine };
  }
}
