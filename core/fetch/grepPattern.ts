/**
 * Compiling a model-supplied grep pattern safely. RE2 guarantees linear time; on top of it a
 * literal that every match must contain is pulled out of the pattern, so a 100 MB log can be
 * skimmed with V8's literal search (GB/s) and only candidate lines are handed to RE2.
 */
import RE2 from "re2";
import { clip, fmtCount, quote } from "./answer";

/** Patterns longer than this are refused: they are almost always pasted content, not a search. */
export const MAX_PATTERN_CHARS = 1_000;

export type CompiledPattern =
  | {
      ok: true;
      re: RE2;
      line: RE2;
      prefilter: RegExp | null;
      /** The pattern is a plain literal: the prefilter's match is the match, no RE2 call needed per line. */
      literal: boolean;
    }
  | { ok: false; message: string };

/** Validates and compiles `pattern`; `line` matches within one line, `re` scans the whole text. */
export function compilePattern(pattern: string, ignoreCase: boolean): CompiledPattern {
  if (pattern.length > MAX_PATTERN_CHARS) {
    return {
      ok: false,
      message: `The pattern is ${fmtCount(pattern.length)} chars long, over the ${fmtCount(MAX_PATTERN_CHARS)}-char limit for a grep pattern; grep for a short, distinctive part of it.`,
    };
  }
  // eslint-disable-next-line no-control-regex
  const ctrl = /[\u0000-\u0008\u000a-\u001f\u007f]/.exec(pattern);
  if (ctrl) {
    const code = ctrl[0].charCodeAt(0).toString(16).padStart(4, "0");
    return {
      ok: false,
      message: `The pattern contains the control character U+${code}; write it as an escape such as \\n or \\x${code.slice(2)} instead.`,
    };
  }
  const flags = "mu" + (ignoreCase ? "i" : "");
  let re: RE2;
  let line: RE2;
  try {
    re = new RE2(pattern, "g" + flags);
    line = new RE2(pattern, flags);
  } catch (err) {
    // RE2 says "<reason>: <offending part>"; the flags it prepends ("(?m)") are ours, not the user's.
    const msg = err instanceof Error ? err.message : String(err);
    const why = msg.replace(/\(\?[a-z]+\)/, "").replace(/[.\s]+$/, "") || "invalid";
    const hint = /perl operator|escape sequence: \\[1-9]/.test(msg) ? " (RE2 has no lookaround or backreferences)" : "";
    return { ok: false, message: `The pattern ${quote(pattern)} is a bad pattern: ${clip(why, 120)}${hint}.` };
  }
  const literals = requiredLiterals(pattern);
  const prefilter = literals ? new RegExp(literals.map(escapeForV8).join("|"), "gu" + (ignoreCase ? "i" : "")) : null;
  // No regex syntax at all: a line holds the pattern exactly where the literal search finds it.
  const literal = prefilter !== null && !/[\\^$.|?*+()[\]{}]/.test(pattern);
  return { ok: true, re, line, prefilter, literal };
}

/** Escapes a literal for a V8 regex with the `u` flag (where `\-` would be a syntax error). */
function escapeForV8(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * For each top-level alternative of `pattern`, its longest run of literal characters that every
 * match of that alternative contains; null when some alternative has none of 2+ chars, or the
 * pattern is too unusual to analyse (flag groups, `\Q`). A wrong answer here would lose matches,
 * so anything unrecognised gives up rather than guesses.
 */
export function requiredLiterals(pattern: string): string[] | null {
  if (pattern.includes("(?") || pattern.includes("\\Q")) return null;
  const out: string[] = [];
  for (const branch of splitTopLevel(pattern)) {
    const lit = longestRun(branch);
    if (lit === null || lit.length < 2) return null;
    out.push(lit);
  }
  return out;
}

function splitTopLevel(p: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") i++;
    else if (c === "[") i = skipClass(p, i);
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      parts.push(p.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(p.slice(from));
  return parts;
}

/** Index of the `]` closing the class opened at `i` (RE2 syntax: a leading `]` or `^]` is literal). */
function skipClass(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === "^") j++;
  if (p[j] === "]") j++;
  for (; j < p.length; j++) {
    if (p[j] === "\\") j++;
    else if (p[j] === "[" && p[j + 1] === ":") {
      const end = p.indexOf(":]", j + 2);
      if (end > 0) j = end + 1;
    } else if (p[j] === "]") return j;
  }
  return p.length;
}

function skipGroup(p: string, i: number): number {
  let depth = 0;
  for (let j = i; j < p.length; j++) {
    const c = p[j];
    if (c === "\\") j++;
    else if (c === "[") j = skipClass(p, j);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j;
  }
  return p.length;
}

/** The longest required literal run in a branch without top-level `|`; null when unsure. */
function longestRun(branch: string): string | null {
  let best = "";
  let run: string[] = [];
  const endRun = () => {
    if (run.join("").length > best.length) best = run.join("");
    run = [];
  };
  let i = 0;
  while (i < branch.length) {
    const c = branch[i]!;
    let atom: string | null = null; // a literal character, or null for any other atom
    let next = i + 1;
    if (c === "\\") {
      const e = branch[i + 1];
      if (e === undefined) return null;
      if (/[A-Za-z0-9]/.test(e))
        atom = null; // \d \w \b \x41 \1 …: not a plain literal
      else atom = e;
      next = i + 2;
      if (e === "x" || e === "p" || e === "P") next = skipEscapeBody(branch, i + 2);
    } else if (c === "[") next = skipClass(branch, i) + 1;
    else if (c === "(") next = skipGroup(branch, i) + 1;
    else if (".^$".includes(c)) atom = null;
    else if ("*+?{})]".includes(c))
      return null; // a quantifier with nothing before it: leave to RE2
    else atom = String.fromCodePoint(branch.codePointAt(i)!);
    if (atom && atom.length === 2) next = i + 2;
    // Quantifier after the atom.
    const q = branch[next];
    let minOne = true;
    let quantified = false;
    if (q === "*" || q === "?") {
      minOne = false;
      quantified = true;
      next++;
    } else if (q === "+") {
      quantified = true;
      next++;
    } else if (q === "{") {
      const m = /^\{(\d+)(,\d*)?\}/.exec(branch.slice(next));
      if (!m) return null;
      minOne = Number(m[1]) >= 1;
      quantified = true;
      next += m[0].length;
    }
    if (quantified && branch[next] === "?") next++;
    if (atom !== null && minOne) run.push(atom);
    if (atom === null || quantified) endRun();
    i = next;
  }
  endRun();
  return best;
}

/** End of `\x41`, `\x{263a}`, `\pL` or `\p{Greek}` bodies. */
function skipEscapeBody(p: string, j: number): number {
  if (p[j] === "{") {
    const end = p.indexOf("}", j);
    return end < 0 ? p.length : end + 1;
  }
  return p[j - 1] === "x" ? j + 2 : j + 1;
}
