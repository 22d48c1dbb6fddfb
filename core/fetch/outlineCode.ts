/**
 * Code outline: top-level symbols with 0-based lines, by line patterns for the common
 * languages (JS/TS, Python, Go, Rust, Java/C#/Kotlin, C/C++, Ruby, PHP, shell). Patterns,
 * not parsers: the blob's language is unknown and often a fragment, and a missed symbol
 * costs little because grep is one call away. Class members one indent level deep are listed
 * under their class.
 */
import { clip, fmtCount } from "./answer";

const MAX_SYMBOLS = 200;
/** Longer lines are minified or data, not declarations. */
const MAX_DECL_LINE = 400;

/** [kind, pattern]; group 1 is the name. Tried in order, first match wins. */
const TOP: [string, RegExp][] = [
  ["function", /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)/],
  ["class", /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([\w$]+)/],
  ["interface", /^(?:export\s+)?(?:declare\s+)?interface\s+([\w$]+)/],
  ["type", /^(?:export\s+)?(?:declare\s+)?type\s+([\w$]+)\s*(?:<[^=]*>)?\s*=/],
  ["enum", /^(?:export\s+)?(?:const\s+)?enum\s+([\w$]+)/],
  [
    "function",
    /^(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*(?::[^=]{0,200})?=\s*(?:async\s+)?(?:function\b|\([^)]{0,300}\)\s*(?::[^=]{0,100})?=>|[\w$]+\s*=>)/,
  ],
  ["def", /^(?:async\s+)?def\s+(\w+)/],
  ["class", /^class\s+(\w+)/],
  ["func", /^func\s+(?:\([^)]{0,200}\)\s*)?(\w+)/],
  ["type", /^type\s+(\w+)\s+(?:struct|interface)\b/],
  ["fn", /^(?:pub(?:\([\w\s:]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"C"\s+)?fn\s+(\w+)/],
  ["type", /^(?:pub(?:\([\w\s:]*\))?\s+)?(?:struct|enum|trait|union)\s+(\w+)/],
  ["impl", /^impl(?:<[^>]{0,200}>)?\s+([\w:<>, ]+?)\s*(?:\{|where|$)/],
  ["module", /^(?:pub\s+)?mod\s+(\w+)/],
  [
    "class",
    /^(?:(?:public|private|protected|internal|static|final|abstract|sealed|partial|data|open)\s+)*(?:class|interface|enum|record|object|struct)\s+(\w+)/,
  ],
  ["module", /^(?:module|namespace)\s+([\w:.]+)/],
  ["function", /^(?:(?:public|private|protected|static|abstract|final)\s+)*function\s+&?(\w+)/],
  ["function", /^(?:function\s+)?([\w-]+)\s*\(\)\s*\{\s*$/],
  // C/C++: a return type, a name and a parameter list that does not end in `;`.
  [
    "function",
    /^(?!(?:if|for|while|switch|return|else|do|case|typedef|new|await|throw|yield|delete|typeof|echo|print|assert|raise|del|not|and|or|in|is)\b)[A-Za-z_][\w\s*&:<>,]{0,120}?[\s*&]([A-Za-z_][\w:~]*)\s*\([^;]{0,300}$/,
  ],
];

const MEMBER: [string, RegExp][] = [
  ["method", /^(?:async\s+)?def\s+(\w+)/],
  [
    "method",
    /^(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*(?!(?:if|for|while|switch|catch|return|else|new|function)\b)([\w$#]+)\s*(?:<[^>]{0,100}>)?\s*\([^)]{0,300}\)\s*(?::[^{;]{0,200})?\{\s*$/,
  ],
  [
    "method",
    /^(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|async|synchronized)\s+)+[\w<>[\],.? ]{1,120}?\s+(\w+)\s*\([^;]{0,300}$/,
  ],
  ["method", /^def\s+([\w.?!]+)/],
];

/** In a minified line: named functions and classes, wherever they stand (group 1 or 2 is the name). */
const INLINE_DECL = /(?:^|[;{},()=:!&|?\s])(?:function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|class\s+([A-Za-z_$][\w$]*)[\s{])/g;

interface Symbol {
  /** Char offset of a declaration inside a minified line (read it with range start_char). */
  char?: number;
  line: number;
  kind: string;
  name: string;
  member: boolean;
}

export function codeOutline(text: string): string {
  const symbols: Symbol[] = [];
  let found = 0;
  let minified = 0;
  let imports = 0;
  let inClass = false;
  let memberIndent = -1;
  let line = 0;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    const raw = text.slice(pos, Math.min(end, pos + MAX_DECL_LINE + 1));
    if (end - pos > MAX_DECL_LINE) {
      // Minified code: its declarations are named by char offset, since the line is all there is.
      const long = text.slice(pos, end);
      INLINE_DECL.lastIndex = 0;
      for (let m; (m = INLINE_DECL.exec(long));) {
        found++;
        minified++;
        const name = (m[1] ?? m[2])!;
        const at = pos + m.index + m[0].indexOf(m[1] ? "function" : "class");
        if (symbols.length < MAX_SYMBOLS) symbols.push({ line, char: at, kind: m[1] ? "function" : "class", name, member: false });
        INLINE_DECL.lastIndex = m.index + m[0].length - 1;
      }
      inClass = false;
    } else if (raw.trim() !== "") {
      const indent = /^[ \t]*/.exec(raw)![0].replace(/\t/g, "    ").length;
      const body = raw.trim();
      if (indent === 0) {
        if (/^(?:import|from\s+\S+\s+import|#include|use|using|require|package)\b/.test(body)) imports++;
        const hit = match(TOP, body);
        if (hit) {
          found++;
          if (symbols.length < MAX_SYMBOLS) symbols.push({ line, ...hit, member: false });
        }
        // Members are looked for only under a class-like declaration, one indent level in.
        inClass = !!hit && /^(class|impl|module)$/.test(hit.kind);
        memberIndent = -1;
      } else if (inClass) {
        if (memberIndent < 0) memberIndent = indent;
        const hit = indent === memberIndent ? match(MEMBER, body) : null;
        if (hit) {
          found++;
          if (symbols.length < MAX_SYMBOLS) symbols.push({ line, ...hit, member: true });
        }
      }
    }
    if (nl === -1) break;
    pos = nl + 1;
    line++;
  }
  const lines = line + (text.endsWith("\n") || text.length === 0 ? 0 : 1);
  const out = [`Code outline: ${fmtCount(lines)} lines, ${fmtCount(found)} symbols${imports ? `, ${fmtCount(imports)} import lines` : ""}`];
  if (minified > 0)
    out.push(`(minified lines: ${fmtCount(minified)} declarations in them, at @<char offset>; read one with range start_char)`);
  for (const s of symbols)
    out.push(`L${s.line}${s.char !== undefined ? ` @${s.char}` : ""} ${s.member ? "  " : ""}${s.kind} ${clip(s.name, 80)}`);
  if (found > symbols.length) out.push(`… ${fmtCount(found - symbols.length)} more symbols; grep for them by name`);
  if (found === 0) out.push("No top-level declarations recognised; use grep or range to read the code.");
  return out.join("\n");
}

function match(table: [string, RegExp][], body: string): { kind: string; name: string } | null {
  for (const [kind, re] of table) {
    const m = re.exec(body);
    if (m) return { kind, name: m[1]!.trim() };
  }
  return null;
}
