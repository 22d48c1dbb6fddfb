/**
 * What the client gets for an upstream result: the text content goes through rescue and dedup;
 * non-text items pass untouched; oversized structuredContent is dropped when it only repeats the
 * text, else stored as its own blob. A result Spillway leaves alone is returned exactly as sent.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Outcome } from "../types";
import { blobLink } from "./blobResources";
import type { Engine } from "../engine/engineApi";

type Content = CallToolResult["content"][number];

export interface DeliverInput {
  sessionId: string;
  /** The tool's name as the client sees it. */
  tool: string;
  server: string;
  /** The arguments as the model wrote them (before spill: expansion): the dedup key. */
  args: unknown;
  result: CallToolResult;
  /** A sentence about denied spill: tokens, appended as a text item. */
  note: string | null;
  /** Told the ledger ids of the call and of its structuredContent part (when that was recorded apart). */
  onRecorded?: (ids: { main: number | null; structured: number | null }) => void;
}

const replaced = (o: Outcome) => o === "rescued" || o === "stubbed";

/** Strings at least this long count as "large" when deciding whether structuredContent repeats the text. */
const LARGE_STRING = 256;

/**
 * True when the JSON's size is almost all strings that appear verbatim in the text content
 * (server-filesystem sends the file in both): what is left once those strings are set aside is
 * under the rescue threshold.
 */
export function repeatsText(value: unknown, jsonLength: number, text: string, threshold: number): boolean {
  let covered = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.length < LARGE_STRING) continue;
      if (!text.includes(v)) return false;
      covered += JSON.stringify(v).length;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === "object") stack.push(...Object.values(v));
  }
  return covered > 0 && jsonLength - covered <= threshold;
}

export function deliverResult(engine: Engine, input: DeliverInput): CallToolResult {
  const { result } = input;
  const content: Content[] = Array.isArray(result.content) ? result.content : [];
  const text = content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
  const base = { sessionId: input.sessionId, tool: input.tool, server: input.server, args: input.args, isError: result.isError === true };
  const main = engine.transformToolResult({ ...base, text });

  const extra: Content[] = [];
  let structuredCall: number | null = null;
  let structured = result.structuredContent;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    const threshold = engine.config.rescue.thresholdChars;
    if (json.length > threshold) {
      if (repeatsText(structured, json.length, text, threshold)) {
        structured = undefined;
      } else {
        const side = engine.transformToolResult({ ...base, text: json });
        structuredCall = side.callId;
        if (replaced(side.outcome)) {
          structured = undefined;
          extra.push({ type: "text", text: side.text });
          if (side.outcome === "rescued" && side.blobId) extra.push(blobLink(engine, side.blobId, input.tool));
        }
      }
    }
  }

  input.onRecorded?.({ main: main.callId, structured: structuredCall });
  if (!replaced(main.outcome) && structured === result.structuredContent && !input.note) return result;

  const out: Content[] = [];
  if (replaced(main.outcome)) {
    out.push({ type: "text", text: main.text });
    if (main.outcome === "rescued" && main.blobId) out.push(blobLink(engine, main.blobId, input.tool));
    out.push(...content.filter((c) => c.type !== "text"));
  } else {
    out.push(...content);
  }
  out.push(...extra);
  if (input.note) out.push({ type: "text", text: input.note });
  const delivered: CallToolResult = { ...result, content: out };
  if (structured === undefined) delete delivered.structuredContent;
  else delivered.structuredContent = structured;
  return delivered;
}
