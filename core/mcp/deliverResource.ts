/**
 * What the client gets for an upstream resources/read: a large text content goes through rescue
 * and dedup as a tool result would (handle text in place of the content, the blob's
 * resource_link in its `_meta`); a small one passes with its secrets masked (per the sensitivity
 * mode); binary contents keep their base64. Every other string (a content's uri and _meta, the
 * result's _meta) goes through the model's exit, and a result Spillway leaves alone is returned exactly as sent.
 */
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Engine } from "../engine/engineApi";
import { maskJsonValue } from "../sensitivity/maskJson";
import { blobLink } from "./blobResources";

export interface DeliverResourceInput {
  sessionId: string;
  server: string;
  /** The URI as the client asked for it: the dedup key. */
  uri: string;
  result: ReadResourceResult;
}

/** The `_meta` key under which a rescued content names its stored blob. */
export const RESCUED_META = "spillway/resource_link";

export function deliverResource(engine: Engine, input: DeliverResourceInput): ReadResourceResult {
  const tool = `resources/read ${input.uri}`;
  const exit = (t: string) => engine.modelView(t, tool);
  let changed = false;
  const contents = input.result.contents.map((c) => {
    // The fields beside the text or the base64 (uri, _meta) reach the model too. A masked uri no
    // longer names the resource; for a uri that carries a secret, that is the point.
    const { text, blob: _blob, ...rest } = c as typeof c & { text?: unknown; blob?: unknown };
    const masked = maskJsonValue(rest, exit);
    const item = masked === rest ? c : ({ ...c, ...masked } as typeof c);
    if (item !== c) changed = true;
    if (typeof text !== "string") return item;
    const out = engine.transformToolResult({ sessionId: input.sessionId, tool, server: input.server, args: { uri: c.uri }, text });
    if (out.outcome !== "rescued" && out.outcome !== "stubbed") {
      if (!out.masked) return item;
      changed = true;
      return { ...item, text: out.text }; // the same content, its secrets through the model's exit
    }
    changed = true;
    const link = out.outcome === "rescued" && out.blobId ? { [RESCUED_META]: blobLink(engine, out.blobId) } : {};
    // The handle is plain text whatever the resource was; the original type is in the link.
    return { uri: item.uri, mimeType: "text/plain", text: out.text, _meta: { ...item._meta, ...link } };
  });
  // The result's own fields (_meta) too.
  const { contents: _, ...top } = input.result;
  const maskedTop = maskJsonValue(top, exit);
  if (!changed && maskedTop === top) return input.result;
  return { ...input.result, ...maskedTop, contents };
}
