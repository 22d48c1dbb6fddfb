/**
 * JSON excerpt: the top-level container pretty-printed from its first and last entries, with
 * the count of what lies between. Works the same for pretty and minified (one-line) JSON,
 * because it reads structure from one streaming scan rather than from lines.
 */
import { fitPlan, type Block } from "../budget";
import { fmtInt, skipWs } from "../format";
import { DEFAULT_RENDER, gapText, renderString, renderValue } from "../json/render";
import { narrowScan, scanContainer, valueType, type ContainerScan, type Entry } from "../json/scan";
import { containerShape } from "../json/shape";

const SCALARS = new Set(["string", "number", "boolean", "null"]);

/**
 * Structural excerpt of a JSON document whose top level is an object or array. `scanned`: the
 * kind detection's scan of this very text (at least 40 first and 5 last entries kept), so a big
 * document is walked once, not twice.
 */
export function jsonExcerpt(text: string, cap: number, scanned?: ContainerScan): string {
  const start = skipWs(text);
  const c = text.charCodeAt(start);
  if (c !== 123 && c !== 91) throw new Error("not a JSON container");
  const isObj = c === 123;
  const pre = scanned && scanned.start === start && scanned.first.length >= Math.min(40, scanned.count) ? scanned : undefined;
  // Peek at the first entry (starting in the first 4 KB): arrays of scalars can show many more entries per char.
  const peekLimit = Math.min(text.length, start + 4096);
  const firstValue = pre
    ? pre.first[0] && pre.first[0].valStart < peekLimit
      ? pre.first[0].valStart
      : -1
    : peekFirst(text, start, peekLimit);
  const scalarItems = !isObj && firstValue !== -1 && SCALARS.has(valueType(text, firstValue));
  const nHead = isObj ? 40 : scalarItems ? 20 : 3;
  const nTail = isObj ? 3 : scalarItems ? 5 : 2;
  const scan = pre ? narrowScan(pre, nHead, nTail) : scanContainer(text, start, nHead, nTail);
  if (scan.count === 0) throw new Error("an empty container is better shown by the plain builder");
  // Text after the top-level value (NDJSON forced to "json", log lines after a payload)
  // would be hidden by a structural view, so such input gets the plain builder instead.
  if (scan.closed && skipWs(text, scan.end) < text.length) throw new Error("more than one JSON value");

  const unit = (e: Entry): string => {
    const key = isObj ? renderString(text, e.keyStart, e.keyEnd, 80) + ": " : "";
    const comma = e.index < scan.count - 1 ? "," : "";
    return "  " + key + renderValue(text, e.valStart, e.valEnd, "  ", 1, DEFAULT_RENDER, e.count) + comma;
  };
  const shape = containerShape(text, scan);
  const blocks: Block[] = [
    { type: "fixed", text: `${isObj ? "{" : "["}  // ${shape}` },
    { type: "section", role: "head", units: scan.first.map(unit) },
    {
      type: "note",
      render: (s) => {
        const omitted = scan.count - s.head - s.tail;
        return omitted > 0 ? "  " + gapText(isObj, omitted, s.head, scan.count - s.tail - 1) : "";
      },
    },
    { type: "section", role: "tail", units: scan.last.map(unit) },
    { type: "fixed", text: scan.closed ? (isObj ? "}" : "]") : `  … (unterminated after ${fmtInt(text.length)} chars)` },
  ];
  return fitPlan(blocks, cap, text.length).text;
}

/** Where the container's first value starts, when it starts before `limit`; else -1. */
function peekFirst(text: string, start: number, limit: number): number {
  const peek = scanContainer(text, start, 1, 0, limit);
  return peek.first.length > 0 ? peek.first[0]!.valStart : -1;
}
