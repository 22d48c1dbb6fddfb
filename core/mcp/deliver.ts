/**
 * What the client gets for an upstream result: the text content goes through rescue and dedup;
 * oversized structuredContent is dropped when it only repeats the text, else stored as its own
 * blob; every text that stays (items, embedded resources, structured strings) leaves through the
 * model's exit (masked per the sensitivity mode); images and audio pass untouched. A result
 * Spillway leaves alone is returned exactly as sent.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { maskJsonValue } from "../sensitivity/maskJson";
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
  /**
   * The server's resource URIs the client reads under another name (forwarding.exposedUris): a
   * resource_link or embedded resource naming one is given that name, the one resources/read takes.
   */
  uris?: ReadonlyMap<string, string>;
}

const replaced = (o: Outcome) => o === "rescued" || o === "stubbed";

/** Strings at least this long count as "large" when deciding whether structuredContent repeats the text. */
const LARGE_STRING = 256;

/**
 * True when the JSON's size is almost all strings that appear verbatim in the text content
 * (server-filesystem sends the file in both), or that are the base64 or text of its other items
 * (its read_media_file sends an image both as an item and in structuredContent): what is left once
 * those strings are set aside is under the rescue threshold.
 */
export function repeatsText(
  value: unknown,
  jsonLength: number,
  text: string,
  threshold: number,
  payloads: ReadonlySet<string> = new Set(),
): boolean {
  let covered = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.length < LARGE_STRING) continue;
      if (!payloads.has(v) && !text.includes(v)) return false;
      covered += JSON.stringify(v).length;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === "object") stack.push(...Object.values(v));
  }
  return covered > 0 && jsonLength - covered <= threshold;
}

/** The URIs a result's resource_link and embedded resource items name (for forwarding.exposedUris). */
export function linkedUris(result: CallToolResult): string[] {
  const content: Content[] = Array.isArray(result.content) ? result.content : [];
  return content.flatMap((c) => (c.type === "resource_link" ? [c.uri] : c.type === "resource" ? [c.resource.uri] : []));
}

/** `result` with its items' URIs renamed as `uris` says; the same object when none is. */
function renamed(result: CallToolResult, uris: ReadonlyMap<string, string> | undefined): CallToolResult {
  if (!uris?.size || !Array.isArray(result.content)) return result;
  let changed = false;
  const content = result.content.map((c): Content => {
    const uri = c.type === "resource_link" ? uris.get(c.uri) : c.type === "resource" ? uris.get(c.resource.uri) : undefined;
    if (uri === undefined) return c;
    changed = true;
    if (c.type === "resource") return { ...c, resource: { ...c.resource, uri } };
    return c.type === "resource_link" ? { ...c, uri } : c;
  });
  return changed ? { ...result, content } : result;
}

export function deliverResult(engine: Engine, input: DeliverInput): CallToolResult {
  const result = renamed(input.result, input.uris);
  const content: Content[] = Array.isArray(result.content) ? result.content : [];
  const texts = content.flatMap((c) => (c.type === "text" ? [c.text] : []));
  const text = texts.join("\n");
  const base = { sessionId: input.sessionId, tool: input.tool, server: input.server, args: input.args, isError: result.isError === true };
  const main = engine.transformToolResult({ ...base, text });
  const exit = (t: string) => engine.modelView(t, input.tool);

  const extra: Content[] = [];
  let structuredCall: number | null = null;
  let structured = result.structuredContent;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    const threshold = engine.config.rescue.thresholdChars;
    if (json.length > threshold) {
      if (repeatsText(structured, json.length, text, threshold, payloadsOf(content))) {
        structured = undefined;
      } else {
        const side = engine.transformToolResult({ ...base, text: json });
        structuredCall = side.callId;
        if (replaced(side.outcome)) {
          structured = undefined;
          extra.push({ type: "text", text: side.text });
          if (side.outcome === "rescued" && side.blobId) extra.push(blobLink(engine, side.blobId));
        }
      }
    }
    if (structured !== undefined) structured = maskJsonValue(structured, exit);
  }

  input.onRecorded?.({ main: main.callId, structured: structuredCall });
  const nonText = content.filter((c) => c.type !== "text");
  // Each non-text item as what replaces it: itself (masked), or a large embedded text's handle.
  const others = nonText.map((c) => embedded(engine, base, c, exit));
  const othersChanged = others.some((c, i) => c.length !== 1 || c[0] !== nonText[i]);
  // A text item's fields beside its text (_meta, annotations) and the result's own (_meta) are side channels.
  const textItems = content.filter((c) => c.type === "text");
  const textRest = textItems.map((c) => maskFields(c, ["type", "text"], exit));
  const textRestChanged = textRest.some((c, i) => c !== textItems[i]);
  const top = maskFields(result, ["content", "structuredContent", "isError"], exit);
  const unchanged = !replaced(main.outcome) && !main.masked && !othersChanged && !textRestChanged && top === result;
  if (unchanged && structured === result.structuredContent && !input.note) return result;

  const out: Content[] = [];
  if (replaced(main.outcome)) {
    out.push({ type: "text", text: main.text });
    if (main.outcome === "rescued" && main.blobId) out.push(blobLink(engine, main.blobId));
    out.push(...others.flat());
  } else {
    const given = main.masked ? (splitLike(main.text, texts) ?? texts.map(exit)) : texts;
    let t = 0;
    let o = 0;
    for (const c of content) {
      if (c.type === "text") out.push({ ...textRest[t]!, text: given[t++]! } as Content);
      else out.push(...others[o++]!);
    }
  }
  out.push(...extra);
  if (input.note) out.push({ type: "text", text: input.note });
  const delivered: CallToolResult = { ...top, content: out };
  // Hosts that show structuredContent instead of the text (Codex, Claude Code) would never show
  // the note; the upstream's outputSchema is not offered (upstreamManager), so it may go.
  if (input.note) structured = undefined;
  if (structured === undefined) delete delivered.structuredContent;
  else delivered.structuredContent = structured;
  return delivered;
}

/** The base64 and texts the non-text items carry (images, audio, embedded resources). */
function payloadsOf(content: Content[]): Set<string> {
  const out = new Set<string>();
  for (const c of content) {
    if ((c.type === "image" || c.type === "audio") && typeof c.data === "string") out.add(c.data);
    if (c.type === "resource") {
      const r = c.resource as { blob?: unknown; text?: unknown };
      if (typeof r.blob === "string") out.add(r.blob);
      if (typeof r.text === "string") out.add(r.text);
    }
  }
  return out;
}

/**
 * An embedded resource whose text is over the threshold (a server that returns a file as a
 * `resource` item) is a result like any text: rescued or stubbed as its own part of the call,
 * the item replaced by the handle and a link. Any other item as maskItem leaves it.
 */
function embedded(
  engine: Engine,
  base: Omit<Parameters<Engine["transformToolResult"]>[0], "text">,
  c: Content,
  exit: (t: string) => string,
): Content[] {
  if (c.type !== "resource" || !("text" in c.resource) || typeof c.resource.text !== "string") return [maskItem(c, exit)];
  if (c.resource.text.length <= engine.config.rescue.thresholdChars) return [maskItem(c, exit)];
  const side = engine.transformToolResult({ ...base, text: c.resource.text });
  if (!replaced(side.outcome)) return [maskItem(c, exit)];
  const handle: Content = { type: "text", text: `${exit(oneLine(c.resource.uri))}:\n${side.text}` };
  return side.outcome === "rescued" && side.blobId ? [handle, blobLink(engine, side.blobId)] : [handle];
}

/** A URI as one short line (it heads a handle the model reads). */
function oneLine(uri: unknown): string {
  const s = String(uri ?? "").replace(/\s+/g, " ");
  return s.length > 200 ? s.slice(0, 199) + "…" : s;
}

/**
 * A non-text item with every string through the exit (a resource_link's uri and description, an
 * embedded resource's text, uri and _meta, any item's _meta), but for the base64 of images, audio
 * and binary resources, which are not text.
 */
function maskItem(c: Content, exit: (t: string) => string): Content {
  if (c.type === "image" || c.type === "audio") return maskFields(c, ["type", "data", "mimeType"], exit);
  if (c.type !== "resource") return maskFields(c, ["type"], exit);
  const resource = maskFields(c.resource, ["blob", "mimeType"], exit);
  const item = maskFields(c, ["type", "resource"], exit);
  return resource === c.resource ? item : { ...item, resource };
}

/** `value` with the strings of its fields other than `skip` through the exit; the same object when none changed. */
function maskFields<T extends object>(value: T, skip: readonly string[], exit: (t: string) => string): T {
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    if (skip.includes(k) || v === null || (typeof v !== "string" && typeof v !== "object")) continue;
    // Masked beside its key: a value under a secret-shaped name is judged with it.
    const m = maskJsonValue({ [k]: v }, exit)[k];
    if (m !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = m;
  }
  return (out as T | null) ?? value;
}

/**
 * The masked join of `parts` cut back into parts. Masking keeps every "\n", so part i is the
 * text up to its own newline count plus the joining one; null when the counts do not add up.
 */
export function splitLike(joined: string, parts: readonly string[]): string[] | null {
  const out: string[] = [];
  let pos = 0;
  for (let i = 0; i < parts.length; i++) {
    let end = pos;
    const newlines = (parts[i]!.match(/\n/g)?.length ?? 0) + (i < parts.length - 1 ? 1 : 0);
    for (let n = 0; n < newlines; n++) {
      end = joined.indexOf("\n", end);
      if (end === -1) return null;
      end++;
    }
    if (i === parts.length - 1) end = joined.length;
    out.push(joined.slice(pos, i < parts.length - 1 ? end - 1 : end));
    pos = end;
  }
  return pos === joined.length || parts.length === 0 ? out : null;
}
