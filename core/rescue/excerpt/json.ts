/**
 * JSON excerpt: the top-level container pretty-printed from its first and last entries, with
 * the count of what lies between. Works the same for pretty and minified (one-line) JSON,
 * because it reads structure from one streaming scan rather than from lines.
 */
import { fitPlan, type Block } from "../budget";
import { fmtInt, skipWs } from "../format";
import { DEFAULT_RENDER, gapText, renderString, renderValue } from "../json/render";
import { scanContainer, valueType, type Entry } from "../json/scan";
import { containerShape } from "../json/shape";

const SCALARS = new Set(["string", "number", "boolean", "null"]);

/** Structural excerpt of a JSON document whose top level is an object or array. */
export function jsonExcerpt(text: string, cap: number): string {
  const start = skipWs(text);
  const c = text.charCodeAt(start);
  if (c !== 123 && c !== 91) throw new Error("not a JSON container");
  const isObj = c === 123;
  // Peek at the first entry: arrays of scalars can show many more entries per char.
  const peek = scanContainer(text, start, 1, 0, Math.min(text.length, start + 4096));
  const scalarItems = !isObj && peek.first.length > 0 && SCALARS.has(valueType(text, peek.first[0]!.valStart));
  const nHead = isObj ? 40 : scalarItems ? 20 : 3;
  const nTail = isObj ? 3 : scalarItems ? 5 : 2;
  const scan = scanContainer(text, start, nHead, nTail);
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
