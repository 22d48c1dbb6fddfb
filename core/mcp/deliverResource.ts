/**
 * What the client gets for an upstream resources/read: a large text content goes through rescue
 * and dedup as a tool result would (handle text in place of the content, the blob's
 * resource_link in its `_meta`); a small one passes with its secrets masked (per the sensitivity
 * mode); binary contents pass untouched, and a result Spillway leaves alone is returned exactly as sent.
 */
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Engine } from "../engine/engineApi";
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
  let changed = false;
  const contents = input.result.contents.map((c) => {
    if (!("text" in c) || typeof c.text !== "string") return c;
    const tool = `resources/read ${input.uri}`;
    const out = engine.transformToolResult({ sessionId: input.sessionId, tool, server: input.server, args: { uri: c.uri }, text: c.text });
    if (out.outcome !== "rescued" && out.outcome !== "stubbed") {
      if (!out.masked) return c;
      changed = true;
      return { ...c, text: out.text }; // the same content, its secrets through the model's exit
    }
    changed = true;
    const link = out.outcome === "rescued" && out.blobId ? { [RESCUED_META]: blobLink(engine, out.blobId) } : {};
    // The handle is plain text whatever the resource was; the original type is in the link.
    return { uri: c.uri, mimeType: "text/plain", text: out.text, _meta: { ...c._meta, ...link } };
  });
  return changed ? { ...input.result, contents } : input.result;
}
