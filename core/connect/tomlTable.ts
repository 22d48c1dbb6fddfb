/**
 * A minimal, careful merge of one TOML table into a document (for Codex's config.toml): the keys
 * we set are replaced inside `[a.b]`, every other line of the file is kept byte for byte
 * (comments, other tables, the user's own keys in that table and its sub-tables). No TOML
 * library: the scanner only needs to know where statements and headers start, which takes
 * strings, multi-line strings, comments and brackets spanning lines into account.
 */
import { ErrorCode, SpillwayError } from "../errors";

/** One `key = value` line of the table we write; `value` is already TOML. */
export interface TomlEntry {
  key: string;
  value: string;
}

interface Line {
  text: string;
  /** True when the line continues a value begun on an earlier line (array, inline table, multi-line string). */
  continued: boolean;
}

const BARE = /^[A-Za-z0-9_-]+$/;

/** A TOML string for any text (basic string; JSON escapes are valid TOML escapes for what we write). */
export const tomlString = (s: string): string => JSON.stringify(s);

/** A key as TOML wants it: bare when it can be, quoted otherwise. */
export const tomlKey = (k: string): string => (BARE.test(k) ? k : tomlString(k));

/** Splits `a."b.c" . d` into ["a", "b.c", "d"]; undefined when it is not a key path. */
export function parseKeyPath(src: string): string[] | undefined {
  const parts: string[] = [];
  let i = 0;
  const skip = () => {
    while (src[i] === " " || src[i] === "\t") i++;
  };
  for (;;) {
    skip();
    if (src[i] === '"' || src[i] === "'") {
      const q = src[i]!;
      let j = i + 1;
      let out = "";
      while (j < src.length && src[j] !== q) {
        if (q === '"' && src[j] === "\\") {
          const esc = src.slice(j, j + 2);
          out += esc === '\\"' ? '"' : esc === "\\\\" ? "\\" : esc;
          j += 2;
          continue;
        }
        out += src[j++];
      }
      if (src[j] !== q) return undefined;
      parts.push(out);
      i = j + 1;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(src.slice(i));
      if (!m) return undefined;
      parts.push(m[0]);
      i += m[0].length;
    }
    skip();
    if (i >= src.length) return parts;
    if (src[i] !== ".") return undefined;
    i++;
  }
}

/** Marks each line as a statement start or a continuation of a multi-line value. */
function scan(doc: string): Line[] {
  const lines: Line[] = [];
  let inString: '"""' | "'''" | null = null;
  let depth = 0;
  for (const text of doc.split(/\r?\n/)) {
    const continued = inString !== null || depth > 0;
    lines.push({ text, continued });
    if (!continued && headerOf(text)) continue;
    let i = 0;
    while (i < text.length) {
      if (inString) {
        if (inString === '"""' && text[i] === "\\") i += 2;
        else if (text.startsWith(inString, i)) {
          i += 3;
          inString = null;
        } else i++;
        continue;
      }
      const c = text[i]!;
      if (c === "#") break;
      if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
        inString = text.slice(i, i + 3) as '"""' | "'''";
        i += 3;
      } else if (c === '"' || c === "'") {
        i++;
        while (i < text.length && text[i] !== c) i += c === '"' && text[i] === "\\" ? 2 : 1;
        i++;
      } else {
        if (c === "[" || c === "{") depth++;
        if (c === "]" || c === "}") depth = Math.max(0, depth - 1);
        i++;
      }
    }
  }
  return lines;
}

/** The key path of a `[table]` or `[[array]]` header line, else undefined. */
function headerOf(text: string): string[] | undefined {
  const m = /^\s*\[(\[?)([^[\]]+)\]\1\s*(#.*)?$/.exec(text);
  return m ? parseKeyPath(m[2]!) : undefined;
}

/** The key path of a `key = value` statement line, else undefined. */
function keyOf(text: string): string[] | undefined {
  const m = /^\s*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*=/.exec(text);
  return m ? parseKeyPath(m[1]!) : undefined;
}

const startsWith = (path: string[], prefix: string[]) => prefix.every((p, i) => path[i] === p);
const same = (a: string[], b: string[]) => a.length === b.length && startsWith(a, b);

/**
 * Sets `entries` in the table `table` (e.g. ["mcp_servers", "spillway"]) of a TOML document.
 * An existing table keeps its position, its other keys and its sub-tables; a missing one is
 * appended. A table defined with dotted keys or inline elsewhere cannot be merged safely: error.
 */
export function setTomlTable(doc: string, table: string[], entries: TomlEntry[], fileName?: string): string {
  const refuse = (why: string) => new SpillwayError(ErrorCode.BadConfig, `${fileName ? `${fileName}: ` : ""}${why}`);
  const eol = doc.includes("\r\n") ? "\r\n" : "\n";
  const lines = scan(doc);
  const ours = new Set(entries.map((e) => e.key));
  const rendered = entries.map((e) => `${tomlKey(e.key)} = ${e.value}`);
  const header = `[${table.map(tomlKey).join(".")}]`;

  let current: string[] = [];
  let headerAt = -1;
  const drop = new Set<number>();
  let dropping = false;
  for (let i = 0; i < lines.length; i++) {
    const { text, continued } = lines[i]!;
    if (continued) {
      if (dropping) drop.add(i);
      continue;
    }
    dropping = false;
    const h = headerOf(text);
    if (h) {
      current = h;
      if (same(h, table)) {
        if (headerAt >= 0) throw refuse(`the table ${header} appears twice; fix the file by hand.`);
        headerAt = i;
      }
      continue;
    }
    const k = keyOf(text);
    if (!k) continue;
    const full = [...current, ...k];
    if (startsWith(full, table) && !startsWith(current, table)) {
      throw refuse(`${table.join(".")} is defined with dotted keys or an inline table (line ${i + 1}); merge the snippet by hand.`);
    }
    if (full.length < table.length && startsWith(table, full)) {
      throw refuse(
        `${full.join(".")} is set as a value (line ${i + 1}), so a [${table.map(tomlKey).join(".")}] table cannot be added; merge the snippet by hand.`,
      );
    }
    if (same(current, table) && ours.has(k[0]!)) {
      drop.add(i);
      dropping = true;
    }
  }

  if (headerAt < 0) {
    const body = doc.replace(/\s*$/, "");
    return `${body}${body ? eol + eol : ""}${[header, ...rendered].join(eol)}${eol}`;
  }
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (drop.has(i)) return;
    out.push(l.text);
    if (i === headerAt) out.push(...rendered);
  });
  return out.join(eol);
}

/**
 * Whether the value of the statement on line `i` (with its continuation lines) names `key` as a key
 * of the inline table it is: `mcp_servers = { spillway = {…} }` holds "spillway". Strings are blanked
 * first, so an argument that merely mentions the key does not count.
 */
function valueNamesKey(lines: Line[], i: number, key: string): boolean {
  let text = lines[i]!.text.slice(lines[i]!.text.indexOf("=") + 1);
  for (let j = i + 1; j < lines.length && lines[j]!.continued; j++) text += "\n" + lines[j]!.text;
  const bare = text.replace(/"(?:[^"\\\n]|\\.)*"|'[^'\n]*'/g, (s) => (parseKeyPath(s)?.[0] === key ? "\u0000" : '""'));
  const name = BARE.test(key) ? `(?:${key}|\u0000)` : "\u0000";
  const depth = (end: number) => {
    let d = 0;
    for (let j = 0; j < end; j++) d += "{[".includes(bare[j]!) ? 1 : "}]".includes(bare[j]!) ? -1 : 0;
    return d;
  };
  // At depth 1: a key of the table the value is, not of a table nested in it.
  return [...bare.matchAll(new RegExp(`[{,]\\s*${name}\\s*[=.]`, "g"))].some((m) => depth(m.index + 1) === 1);
}

/**
 * Removes the table `table` with its sub-tables (`[mcp_servers.spillway]`,
 * `[mcp_servers.spillway.tools.x]`); every other line stays byte for byte. The document as it was
 * when there is no such table; a table defined with dotted keys or inline (`mcp_servers.spillway = {…}`,
 * or inside `mcp_servers = { spillway = {…} }`) is refused, naming its line, to be removed by hand.
 */
export function removeTomlTable(doc: string, table: string[], fileName?: string): string {
  const refuse = (why: string) => new SpillwayError(ErrorCode.BadConfig, `${fileName ? `${fileName}: ` : ""}${why}`);
  const eol = doc.includes("\r\n") ? "\r\n" : "\n";
  const lines = scan(doc);
  const drop = new Set<number>();
  let current: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const { text, continued } = lines[i]!;
    const h = continued ? undefined : headerOf(text);
    if (h) current = h;
    else if (!continued) {
      const k = keyOf(text);
      const full = k ? [...current, ...k] : [];
      if (k && startsWith(full, table) && !startsWith(current, table))
        throw refuse(`${table.join(".")} is defined with dotted keys or an inline table (line ${i + 1}); remove it by hand.`);
      if (k && full.length < table.length && startsWith(table, full) && valueNamesKey(lines, i, table[full.length]!))
        throw refuse(
          `${full.join(".")} is set as a value (line ${i + 1}) that holds ${table.slice(full.length).join(".")}; remove it by hand.`,
        );
    }
    if (startsWith(current, table)) drop.add(i);
  }
  if (drop.size === 0) return doc;
  // Blank and comment lines that end the block set the next table apart (or describe it): they stay.
  const loose = (i: number) => !lines[i]!.continued && /^\s*(#.*)?$/.test(lines[i]!.text);
  const blank = (i: number) => i < 0 || i >= lines.length || lines[i]!.text.trim() === "";
  for (let i = lines.length - 1; i >= 0; i--) {
    // The last line of a run of dropped lines: give back its loose tail; then the blank line that
    // set the run apart goes with it when a blank line (or the file's end) follows.
    if (!drop.has(i) || drop.has(i + 1)) continue;
    let end = i;
    for (; drop.has(end) && loose(end); end--) drop.delete(end);
    let start = end;
    while (drop.has(start - 1)) start--;
    if (drop.has(end) && start > 0 && blank(start - 1) && blank(end + 1)) drop.add(start - 1);
  }
  return lines
    .filter((_, i) => !drop.has(i))
    .map((l) => l.text)
    .join(eol);
}
