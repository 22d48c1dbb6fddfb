/**
 * Reading one JSON-RPC message off the wire (a stdio line or an HTTP body), with the standard error
 * codes and one sentence each: -32700 when it is not UTF-8 JSON, -32600 when it is JSON but not a
 * JSON-RPC message. Shared by the stdio transports and the HTTP endpoint so both answer alike.
 */
import { isUtf8 } from "node:buffer";
import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { OversizedLine } from "./lineReader";

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export type Decoded = { ok: true; message: JSONRPCMessage } | { ok: false; id: RequestId | null; error: RpcErrorBody };

/** A JSON-RPC error response; `id` null when the message's id could not be read. */
export function errorResponse(id: RequestId | null, error: RpcErrorBody): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error } as unknown as JSONRPCMessage;
}

/** Parses bytes as UTF-8 JSON; the sentence never echoes the input (it may hold secrets). */
export function parseJsonBytes(buf: Buffer): { ok: true; value: unknown } | { ok: false; error: RpcErrorBody } {
  if (!isUtf8(buf)) return { ok: false, error: { code: PARSE_ERROR, message: "Parse error: the message is not valid UTF-8 text." } };
  try {
    return { ok: true, value: JSON.parse(buf.toString("utf8")) };
  } catch {
    return { ok: false, error: { code: PARSE_ERROR, message: "Parse error: the message is not valid JSON." } };
  }
}

/** Decodes one message (a stdio line): bytes to a checked JSON-RPC message, or the error to answer. */
export function decodeMessage(buf: Buffer): Decoded {
  const parsed = parseJsonBytes(buf);
  if (!parsed.ok) return { ok: false, id: null, error: parsed.error };
  if (Array.isArray(parsed.value)) {
    return {
      ok: false,
      id: null,
      error: { code: INVALID_REQUEST, message: "Invalid Request: batches are not accepted here; send one JSON-RPC message per line." },
    };
  }
  return checkMessage(parsed.value);
}

/** Checks that a parsed value is one JSON-RPC 2.0 message, naming the first thing wrong. */
export function checkMessage(value: unknown): Decoded {
  const invalid = (why: string, id: RequestId | null = null): Decoded => ({
    ok: false,
    id,
    error: { code: INVALID_REQUEST, message: `Invalid Request: ${why}` },
  });
  if (typeof value !== "object" || value === null || Array.isArray(value)) return invalid("a JSON-RPC message must be a JSON object.");
  const m = value as Record<string, unknown>;
  const id = typeof m.id === "string" || (typeof m.id === "number" && Number.isInteger(m.id)) ? (m.id as RequestId) : null;
  if (m.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0".', id);
  if ("id" in m && id === null && !("error" in m)) return invalid('"id" must be a string or an integer.');
  if ("method" in m) {
    if (typeof m.method !== "string" || m.method.length === 0) return invalid('"method" must be a non-empty string.', id);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(m.method)) return invalid('"method" contains a control character.', id);
    if ("params" in m && (typeof m.params !== "object" || m.params === null || Array.isArray(m.params)))
      return invalid('"params" must be an object.', id);
  } else if (!("result" in m) && !("error" in m)) {
    return invalid('the message has no "method", "result" or "error".', id);
  }
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (!checked.success) return invalid("the message is not a JSON-RPC request, notification or response.", id);
  return { ok: true, message: checked.data };
}

const ID_VALUE = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,256}")`;
/** Writers put the id first (`{"jsonrpc":"2.0","id":…`) or last (`…,"jsonrpc":"2.0","id":…}`, the TS SDK). */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);
/** Only a top-level id is followed by exactly one closing brace and the end of the message. */
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/** The id of a message seen only by its ends (it was too large to keep); null when it cannot be told. */
export function idOfOversized(line: OversizedLine): RequestId | null {
  const fromText = (s: string | undefined): RequestId | null => {
    if (s === undefined) return null;
    try {
      return JSON.parse(s) as RequestId;
    } catch {
      return null;
    }
  };
  return fromText(TAIL_ID.exec(line.tail.toString("utf8"))?.[1]) ?? fromText(HEAD_ID.exec(line.head.toString("utf8"))?.[1]);
}

/** A "method" key among the leading scalar members: a request or notification, not a response. */
const HEAD_METHOD = /^\s*\{\s*(?:"[a-z]+"\s*:\s*(?:"[^"\\]{0,256}"|-?\d{1,16})\s*,\s*)*"method"\s*:/;

/** Whether a message seen only by its ends is a request or notification rather than a response. */
export function looksLikeRequest(line: OversizedLine): boolean {
  return HEAD_METHOD.test(line.head.toString("utf8"));
}

/** "70.2 MB": sizes in the sentences of this module. */
export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
