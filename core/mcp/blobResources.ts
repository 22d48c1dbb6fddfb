/** The session's stored results as MCP resources: `spillway://blob/<id>`. */
import type { ReadResourceResult, Resource, ResourceLink, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { BlobMeta, Kind } from "../types";
import type { Engine } from "../engine/engineApi";
import { fmtInt } from "../rescue/format";

export const BLOB_URI_PREFIX = "spillway://blob/";

export function blobUri(id: string): string {
  return BLOB_URI_PREFIX + id;
}

const MIME: Record<Kind, string> = {
  json: "application/json",
  ndjson: "application/x-ndjson",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  html: "text/html",
  xml: "application/xml",
  markdown: "text/markdown",
  code: "text/plain",
  log: "text/plain",
  text: "text/plain",
};

export function mimeForKind(kind: Kind | undefined): string {
  return (kind && MIME[kind]) || "text/plain";
}

/**
 * The size MCP gives a resource: its bytes, which for a plain blob is its stored UTF-8. An
 * encrypted one is stored as ciphertext and read with its secrets masked, so its size is not known
 * and left out.
 */
function sizeOf(meta: BlobMeta): { size: number } | Record<string, never> {
  return meta.encrypted ? {} : { size: meta.bytes };
}

function describe(meta: BlobMeta): string {
  return `Full result of ${meta.tool}: ${fmtInt(meta.chars)} chars, ${fmtInt(meta.lines)} lines, ${meta.kind}`;
}

/**
 * The resource_link that follows a handle. No title or description: the handle just before it
 * names the tool, sizes and kind, and a host may show the link to the model on every request.
 */
export function blobLink(engine: Engine, id: string): ResourceLink {
  const meta = engine.reader.meta(id);
  return {
    type: "resource_link",
    uri: blobUri(id),
    name: `spillway-${id}`,
    mimeType: mimeForKind(meta?.kind),
    ...(meta ? sizeOf(meta) : {}),
  };
}

export const BLOB_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${BLOB_URI_PREFIX}{id}`,
  name: "spillway-blob",
  title: "A stored tool result",
  description: "The full text of a tool result Spillway stored for this session (the id is in the handle).",
};

/** The session's live blobs, most recent first. */
export function listBlobResources(engine: Engine, sessionId: string): Resource[] {
  const out: Resource[] = [];
  for (const id of engine.reader.heldBlobs(sessionId, 200)) {
    const meta = engine.reader.meta(id);
    if (!meta || meta.state === "tombstoned") continue;
    out.push({
      uri: blobUri(id),
      name: `spillway-${id}`,
      title: `${meta.tool} result ${id}`,
      description: describe(meta),
      mimeType: mimeForKind(meta.kind),
      ...sizeOf(meta),
    });
  }
  return out;
}

/** resources/read: the whole content for the owning session; anything else is an MCP error with a sentence. */
export function readBlobResource(engine: Engine, sessionId: string, uri: string): ReadResourceResult {
  if (!uri.startsWith(BLOB_URI_PREFIX)) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}: Spillway serves spillway://blob/<id>.`);
  }
  const r = engine.readBlob(sessionId, uri.slice(BLOB_URI_PREFIX.length));
  if (!r.ok) throw new McpError(ErrorCode.InvalidParams, r.message);
  return { contents: [{ uri, mimeType: mimeForKind(r.meta.kind), text: r.text }] };
}
