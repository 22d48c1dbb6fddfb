/**
 * Line-based kind heuristics (CSV/TSV, log, code, Markdown, HTML/XML), run on a sample of
 * the first lines only, so their cost does not grow with the input.
 */
import type { Kind } from "../../types";

/** Fields in a delimited line, ignoring delimiters inside double quotes. */
export function countFields(line: string, delim: string): number {
  let n = 1;
  let inQ = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') inQ = !inQ;
    else if (ch === delim && !inQ) n++;
  }
  return n;
}

/** CSV/TSV when most sampled lines have the header's field count (at least 2 columns). */
export function detectDelimited(lines: string[]): { kind: "csv" | "tsv"; delim: string; columns: number } | null {
  const rows = lines.filter((l) => l.trim().length > 0);
  if (rows.length < 3) return null;
  for (const [delim, kind] of [
    ["\t", "tsv"],
    [",", "csv"],
    [";", "csv"],
  ] as const) {
    const cols = countFields(rows[0]!, delim);
    if (cols < 2) continue;
    const same = rows.filter((r) => countFields(r, delim) === cols).length;
    if (same / rows.length >= 0.9) return { kind, delim, columns: cols };
  }
  return null;
}

const LOG_LINE = [
  /^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/, // ISO timestamps
  /^\[?\d{2}:\d{2}:\d{2}/,
  /^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}/, // syslog
  /\b(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|NOTICE|CRITICAL)\b/,
  /^\s*\[(?:info|warn|warning|error|debug|trace)\]/i,
  /^(?:info|warn|warning|error|debug|trace|fatal)(?:\[[^\]]*\])?:/i,
  /^\s*(?:npm (?:ERR!|WARN|notice)|PASS |FAIL |ok \d|not ok \d|Compiling |Finished |Running |Downloading |Downloaded |Step \d+\/\d+|#\d+ |\$ |> )/,
  /\.\w+[(:]\d+[,:]\d+\)?:? (?:error|warning)/, // file(line,col): error
  /^\s+at .+[:(]\d+:\d+\)?$/, // stack frames
  /^(?:asset|chunk|modules by|webpack \d|\[webpack|✓|✗|✔|✖|⚠)/,
  /\b(?:passed|failed|succeeded|elapsed|exit(?:ed)? (?:code|status))\b/i,
];

const CODE_LINE = [
  /^\s*(?:import|export|from|function|const|let|var|class|interface|type|enum|def|async|return|if|else|elif|for|while|switch|case|try|catch|except|finally|public|private|protected|static|package|func|fn|pub|use|mod|impl|struct|namespace|using|module|require|#include|#define|@\w+)\b/,
  /[;{}]\s*$/,
  /^\s*(?:\/\/|\/\*|\*\/|\* |#!)/,
  /=>|::|->|\)\s*\{/,
  /^\s*[})\]];?,?\s*$/,
];

const MD_LINE = [
  /^#{1,6} \S/,
  /^\s*(?:[-*+]|\d+\.) \S/,
  /^(?:```|~~~)/,
  /\[[^\]]+\]\([^)\s]+\)/,
  /^\|.*\|\s*$/,
  /^> /,
  /\*\*[^*]+\*\*|`[^`]+`/,
];

function score(lines: string[], patterns: RegExp[]): number {
  let hit = 0;
  let n = 0;
  for (const l of lines) {
    if (l.trim().length === 0) continue;
    n++;
    const s = l.length > 500 ? l.slice(0, 500) : l;
    if (patterns.some((p) => p.test(s))) hit++;
  }
  return n === 0 ? 0 : hit / n;
}

/** HTML or XML from the start of markup (`head` is the first few KB, trimmed). */
export function detectMarkup(head: string): "html" | "xml" | null {
  if (head.charCodeAt(0) !== 60) return null;
  const low = head.slice(0, 4096).toLowerCase();
  // <title> and <meta> also occur in RSS/Atom, so only document-level tags decide HTML.
  if (/<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]/.test(low)) return "html";
  if (low.startsWith("<?xml") || low.startsWith("<!doctype")) return "xml";
  if (
    /^(?:<!--[\s\S]*?-->\s*)*<(?:div|p|span|table|ul|ol|a|h[1-6]|section|article|nav|header|footer|main|form|img|br|script|style|link|meta|title)[\s>/]/.test(
      low,
    )
  )
    return "html";
  if (/^<(?:[a-z_][\w.:-]*[\s>/]|!--)/.test(low)) return "xml";
  return null;
}

/** Kind of prose-like text from its first lines; never JSON (checked before). */
export function detectTextKind(lines: string[]): Kind {
  const log = score(lines, LOG_LINE);
  const code = score(lines, CODE_LINE);
  const md = score(lines, MD_LINE);
  const hasMdStructure = lines.some((l) => /^#{1,6} \S/.test(l) || /^(?:```|~~~)/.test(l));
  if (log >= 0.3 && log >= code) return "log";
  if (hasMdStructure && md >= 0.15 && md >= code * 0.6) return "markdown";
  if (code >= 0.35) return "code";
  if (log >= 0.3) return "log";
  return "text";
}

/** A guess of a code sample's language, for the shape only. */
export function guessLanguage(sample: string): string {
  if (/^\s*(?:import .* from ['"]|export (?:default |const |function |interface |type ))/m.test(sample)) {
    return /:\s*(?:string|number|boolean)\b|interface \w+|<\w+>\(/.test(sample) ? "typescript" : "javascript";
  }
  if (/^\s*(?:def \w+\(|from \w[\w.]* import |import \w+$|class \w+(?:\(.*\))?:$)/m.test(sample)) return "python";
  if (/^\s*(?:fn \w+|use \w+::|pub (?:fn|struct|enum)|let mut )/m.test(sample)) return "rust";
  if (/^\s*(?:package \w+$|func \w+\()/m.test(sample)) return "go";
  if (/^\s*#include\s*[<"]/m.test(sample)) return "c/c++";
  if (/^\s*(?:public|private) (?:static )?(?:class|void|final)/m.test(sample)) return "java";
  if (/^\s*(?:const|let|var|function) \w+/m.test(sample)) return "javascript";
  return "";
}
