/**
 * A JSON document read for editing in place: each value with the span of text it covers, and
 * each object's members with their keys. Comments (`//`, `/* *\/`) and trailing commas are read
 * as the hosts read them (Gemini CLI, OpenCode and Cursor accept JSONC), so an edit can leave
 * every other byte of the user's file, comments and layout included, as it was.
 */
import { ErrorCode, SpillwayError } from "../errors";

export interface Span {
  start: number;
  end: number;
}
export interface JsonMember {
  key: string;
  keyStart: number;
  value: JsonNode;
}
export type JsonNode = (Span & { kind: "object"; members: JsonMember[] }) | (Span & { kind: "array" | "scalar" });
export type JsonObjectNode = Extract<JsonNode, { kind: "object" }>;

const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

class Reader {
  pos = 0;
  constructor(
    private readonly text: string,
    private readonly fileName: string,
  ) {}

  fail(what: string): never {
    const before = this.text.slice(0, this.pos);
    const line = before.split("\n").length;
    const column = this.pos - before.lastIndexOf("\n");
    throw new SpillwayError(
      ErrorCode.BadConfig,
      `${this.fileName} is not valid JSON at line ${line}, column ${column} (${what}); it was left as it is.`,
    );
  }

  /** Past whitespace and comments. */
  skip(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.pos];
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\uFEFF") this.pos++;
      else if (c === "/" && t[this.pos + 1] === "/") {
        const eol = t.indexOf("\n", this.pos);
        this.pos = eol < 0 ? t.length : eol;
      } else if (c === "/" && t[this.pos + 1] === "*") {
        const close = t.indexOf("*/", this.pos + 2);
        if (close < 0) this.fail("a comment that is never closed");
        this.pos = close + 2;
      } else return;
    }
  }

  value(): JsonNode {
    this.skip();
    const c = this.text[this.pos];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    const start = this.pos;
    if (c === '"') {
      this.string();
      return { kind: "scalar", start, end: this.pos };
    }
    LITERAL.lastIndex = this.pos;
    const m = LITERAL.exec(this.text);
    if (!m) this.fail(c === undefined ? "it ends early" : `unexpected ${JSON.stringify(c)}`);
    this.pos += m[0].length;
    return { kind: "scalar", start, end: this.pos };
  }

  /** A string at the cursor, decoded. */
  string(): string {
    const start = this.pos;
    let i = start + 1;
    for (;;) {
      const c = this.text[i];
      if (c === undefined || c === "\n") {
        this.pos = start;
        this.fail("a string that is never closed");
      }
      if (c === "\\") i += 2;
      else if (c === '"') break;
      else i++;
    }
    this.pos = i + 1;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      this.pos = start;
      return this.fail("a string with a bad escape or a control character");
    }
  }

  /** The members (or items) of `{…}` or `[…]` up to its closing bracket; a trailing comma is allowed. */
  private list(close: string, item: () => void): void {
    this.pos++;
    for (let first = true; ; first = false) {
      this.skip();
      if (this.text[this.pos] === close) {
        this.pos++;
        return;
      }
      if (!first) {
        if (this.text[this.pos] !== ",") this.fail(`expected "," or "${close}"`);
        this.pos++;
        this.skip();
        if (this.text[this.pos] === close) continue;
      }
      item();
    }
  }

  object(): JsonNode {
    const start = this.pos;
    const members: JsonMember[] = [];
    this.list("}", () => {
      if (this.text[this.pos] !== '"') this.fail("expected a key in double quotes");
      const keyStart = this.pos;
      const key = this.string();
      this.skip();
      if (this.text[this.pos] !== ":") this.fail('expected ":" after a key');
      this.pos++;
      members.push({ key, keyStart, value: this.value() });
    });
    return { kind: "object", start, end: this.pos, members };
  }

  array(): JsonNode {
    const start = this.pos;
    this.list("]", () => void this.value());
    return { kind: "array", start, end: this.pos };
  }
}

/** The document's root value with its spans; a clear error (file, line, column) when it is not JSON or JSONC. */
export function readJsonSpans(text: string, fileName: string): JsonNode {
  const r = new Reader(text, fileName);
  const root = r.value();
  r.skip();
  if (r.pos < text.length) r.fail("more text after the end of the document");
  return root;
}

/** The member a JSON reader would take for `key` (the last of duplicates). */
export function memberOf(obj: JsonObjectNode, key: string): JsonMember | undefined {
  return obj.members.findLast((m) => m.key === key);
}
