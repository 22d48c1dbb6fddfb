/**
 * Source code excerpt: the start and end of the file, as for any text, and between them the
 * declarations of the omitted middle (each top-level function, class, type, constant and
 * export, by its first line, with 0-based line numbers) where a log would get its failures.
 * What a model most often needs from a source file it cannot see whole is where each thing
 * is defined and its signature. Found by line shape, the way ctags and repository maps index
 * code, with no parser per language.
 */
import type { Anchor, AnchorScan } from "../anchors";
import { clipEnd } from "../format";
import { linesExcerpt, type Promoted } from "./plain";

/** Longest declaration line shown: a signature's start says most of it, and more of them fit. */
const LINE_MAX = 120;

/*
 * A declaration's first line, by language family: JS/TS (at the top level, or any `export`),
 * Python (top level and one indent, for methods), Go, Rust, and JVM/C# members one indent in.
 */
const DECLARATION = new RegExp(
  [
    String.raw`^export\s`,
    String.raw`^(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?\s*[\w$]|class\s+[\w$]|interface\s+[\w$]|type\s+[\w$]+\s*[=<]|enum\s+[\w$]|namespace\s+[\w$]|(?:const|let|var)\s+[\w$[{])`,
    String.raw`^(?: {4}|\t)?(?:async\s+)?def\s+\w|^class\s+\w`,
    String.raw`^func\s|^type\s+\w+\s+(?:struct|interface)\b`,
    String.raw`^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|impl|mod)\b`,
    String.raw`^(?: {2,4}|\t)?(?:(?:public|private|protected|internal|static|final|abstract|override|open|sealed|data)\s+)+(?:(?:class|interface|enum|record|object|struct)\s+\w|[^=;]*?[\w>\]]\s+\w+\s*\()`,
  ].join("|"),
);

/** Declaration lines of `text` (at most `max` kept), scanning lines with indexOf: the regex sees only a line's start. */
export function codeDeclarations(text: string, max = 400): AnchorScan {
  const anchors: Anchor[] = [];
  let total = 0;
  let line = 0;
  for (let s = 0; s < text.length; line++) {
    let e = text.indexOf("\n", s);
    if (e === -1) e = text.length;
    const c = text.charCodeAt(s);
    // Only lines that start with a letter or an indent can declare anything.
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 32 || c === 9) {
      const l = text.slice(s, Math.min(e, s + 400));
      if (DECLARATION.test(l)) {
        total++;
        if (anchors.length < max) anchors.push({ line, text: clipEnd(l.trimEnd().replace(/\s*\{$/, ""), LINE_MAX), hit: 0, count: 1 });
      }
    }
    s = e + 1;
  }
  return { anchors, total };
}

const DECLARATIONS: Promoted = { find: (t) => codeDeclarations(t), noun: "declarations" };

/** Excerpt of a source file. */
export function codeExcerpt(text: string, cap: number): string {
  return linesExcerpt(text, cap, { anchors: DECLARATIONS });
}
