/**
 * Merging one entry into a JSON config file (Gemini CLI settings.json, opencode.json(c), Cursor's
 * mcp.json), or taking it out: the entry's keys we set replace theirs, and nothing else in the file
 * changes, byte for byte: the user's other keys, their order, comments, trailing commas, line
 * endings and layout. The edit is made on the text (see text/jsonSpans), at the file's own indentation.
 */
import { ErrorCode, SpillwayError } from "../errors";
import { memberOf, readJsonSpans, type JsonMember, type JsonNode, type JsonObjectNode, type Span } from "../text";

type Json = Record<string, unknown>;
interface Edit extends Span {
  text: string;
}

/** The file's indentation step (its first indented line), two spaces for a file with none. */
function indentUnit(doc: string): string {
  const m = /\n([ \t]+)\S/.exec(doc);
  return m ? m[1]! : "  ";
}

/** The leading whitespace of the line `pos` is on. */
function lineIndent(doc: string, pos: number): string {
  const start = doc.lastIndexOf("\n", pos - 1) + 1;
  return /^[ \t]*/.exec(doc.slice(start, pos))![0];
}

/** Whitespace and comments, then a comma. */
const COMMA = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*,/;

const isMultiLine = (doc: string, s: Span) => doc.slice(s.start, s.end).includes("\n");

class Doc {
  readonly eol: string;
  readonly unit: string;
  constructor(readonly text: string) {
    this.eol = text.includes("\r\n") ? "\r\n" : "\n";
    this.unit = indentUnit(text);
  }

  /** `value` as JSON laid out at this file's indentation, its lines continuing at `indent`. */
  render(value: unknown, indent: string): string {
    return JSON.stringify(value, null, this.unit)
      .split("\n")
      .join(this.eol + indent);
  }

  /** New members at the end of `obj`: on their own lines at its members' indentation, or inline in a one-line object that has members. */
  append(obj: JsonObjectNode, entries: [string, unknown][]): Edit[] {
    const last = obj.members.at(-1);
    if (last && !isMultiLine(this.text, obj)) {
      const inline = entries.map(([k, v]) => `, ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join("");
      return [{ start: last.value.end, end: last.value.end, text: inline }];
    }
    const outer = lineIndent(this.text, obj.start);
    const indent = last ? lineIndent(this.text, last.keyStart) : outer + this.unit;
    const lines = entries.map(([k, v]) => `${indent}${JSON.stringify(k)}: ${this.render(v, indent)}`).join("," + this.eol);
    if (!last) {
      // An empty object: its members on lines of their own (what was inside it, comments, stays after them).
      const inside = this.text.slice(obj.start + 1, obj.end - 1);
      const tail = inside.includes("\n") ? "" : this.eol + outer;
      return [{ start: obj.start + 1, end: /^[ \t]*$/.test(inside) ? obj.end - 1 : obj.start + 1, text: this.eol + lines + tail }];
    }
    // After the last member's line (its comma and a line comment stay with it), with a comma after its value.
    const end = last.value.end;
    const rest = /^[ \t]*(,?)[ \t]*(\/\/[^\n]*|\/\*[^\n]*?\*\/[ \t]*)?(?=\r?\n)/.exec(this.text.slice(end));
    const at = rest ? end + rest[0].length : end;
    // A file that ends its last members with a comma (JSONC) gets one after the new last member too.
    const trailing = rest?.[1] === ",";
    const comma = trailing ? "" : ",";
    if (at === end) return [{ start: end, end, text: comma + this.eol + lines }];
    return [
      { start: at, end: at, text: this.eol + lines + (trailing ? "," : "") },
      { start: end, end, text: comma },
    ];
  }

  /** The text of `member` and one comma (its own, or the one before it when it is last), and its lines when it has them to itself. */
  removal(obj: JsonObjectNode, member: JsonMember): Edit[] {
    const t = this.text;
    const i = obj.members.indexOf(member);
    const own = COMMA.exec(t.slice(member.value.end));
    const end = own ? member.value.end + own[0].length : member.value.end;
    const prev = i > 0 ? obj.members[i - 1]!.value.end : -1;
    if (!own && prev >= 0 && !t.slice(prev, member.value.end).includes("\n")) return [{ start: prev, end: member.value.end, text: "" }]; // `, "spillway": {…}` inline at the end
    const edits: Edit[] = [];
    if (!own && prev >= 0) {
      const before = prev + COMMA.exec(t.slice(prev))![0].length;
      edits.push({ start: before - 1, end: before, text: "" });
    }
    if (obj.members.length === 1 && /^\s*$/.test(t.slice(obj.start + 1, member.keyStart) + t.slice(end, obj.end - 1)))
      return [{ start: obj.start + 1, end: obj.end - 1, text: "" }]; // the only member, nothing else inside: `{}`
    const start = this.lineStartIfAlone(member.keyStart);
    const lineEnd = this.lineEndIfAlone(end);
    const beginsLine = start < member.keyStart || start === 0 || t[start - 1] === "\n";
    if (beginsLine && lineEnd > end) edits.push({ start, end: lineEnd, text: "" });
    // Sharing its line: the spaces after its comma go with it.
    else edits.push({ start: member.keyStart, end: own ? end + /^[ \t]*/.exec(t.slice(end))![0].length : end, text: "" });
    return edits;
  }

  /** The start of `pos`'s line when only whitespace comes before it there. */
  private lineStartIfAlone(pos: number): number {
    const ls = this.text.lastIndexOf("\n", pos - 1) + 1;
    return /^[ \t]*$/.test(this.text.slice(ls, pos)) ? ls : pos;
  }

  /** Past the line break after `pos` when only whitespace follows it on its line. */
  private lineEndIfAlone(pos: number): number {
    const m = /^[ \t]*\r?\n/.exec(this.text.slice(pos));
    return m ? pos + m[0].length : pos;
  }

  apply(edits: Edit[]): string {
    let out = this.text;
    for (const e of edits.toSorted((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  }
}

function rootObject(doc: string, fileName: string): JsonObjectNode {
  const root = readJsonSpans(doc, fileName);
  if (root.kind !== "object")
    throw new SpillwayError(ErrorCode.BadConfig, `${fileName} does not hold a JSON object; it was left as it is.`);
  return root;
}

/** `{ a: { b: entry } }` for path ["a", "b"]. */
const nest = (path: string[], entry: Json): unknown => path.reduceRight<unknown>((v, k) => ({ [k]: v }), entry);

const valueOf = (doc: string, node: JsonNode): unknown => JSON.parse(doc.slice(node.start, node.end));

/** Sets `path` (e.g. ["mcpServers", "spillway"]) to `entry`, merged over an existing object there. */
export function setJsonEntry(doc: string | undefined, path: string[], entry: Json, fileName = "the file"): string {
  if (doc === undefined || doc.trim() === "") return JSON.stringify(nest(path, entry), null, 2) + "\n";
  const d = new Doc(doc);
  let at = rootObject(doc, fileName);
  for (const [i, key] of path.entries()) {
    const m = memberOf(at, key);
    if (!m) return d.apply(d.append(at, [[key, nest(path.slice(i + 1), entry)]]));
    if (i === path.length - 1) {
      if (m.value.kind !== "object") return d.apply([{ ...m.value, text: d.render(entry, lineIndent(doc, m.keyStart)) }]);
      const obj = m.value;
      const edits: Edit[] = [];
      const added: [string, unknown][] = [];
      for (const [k, v] of Object.entries(entry)) {
        const have = memberOf(obj, k);
        if (!have) added.push([k, v]);
        else if (!isSame(valueOf(doc, have.value), v)) {
          const inline = !isMultiLine(doc, obj);
          edits.push({ ...have.value, text: inline ? JSON.stringify(v) : d.render(v, lineIndent(doc, have.keyStart)) });
        }
      }
      if (added.length) edits.push(...d.append(obj, added));
      return d.apply(edits);
    }
    if (m.value.kind !== "object")
      throw new SpillwayError(
        ErrorCode.BadConfig,
        `"${path.slice(0, i + 1).join(".")}" in ${fileName} is not an object; it was left as it is.`,
      );
    at = m.value;
  }
  return doc;
}

const isSame = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Removes `path` (e.g. ["mcpServers", "spillway"]) and nothing else, but for the objects on the
 * path that it leaves empty (`--write` made them when they were not there; empty, they mean what no
 * key means). The document as it was when there is no such entry.
 */
export function removeJsonEntry(doc: string | undefined, path: string[], fileName = "the file"): string | undefined {
  if (doc === undefined) return doc;
  let at: JsonNode = rootObject(doc, fileName);
  const chain: [JsonObjectNode, JsonMember][] = [];
  for (const key of path) {
    const m: JsonMember | undefined = at.kind === "object" ? memberOf(at, key) : undefined;
    if (!m || at.kind !== "object") return doc;
    chain.push([at, m]);
    at = m.value;
  }
  // The outermost object on the path that holds nothing but the way to the entry goes with it.
  let k = chain.length - 1;
  while (k > 0 && chain[k]![0].members.length === 1) k--;
  const d = new Doc(doc);
  return d.apply(d.removal(...chain[k]!));
}
