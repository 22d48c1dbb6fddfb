/**
 * Reading the body of a POST to /mcp: up to 64 MB, then checked as JSON-RPC so that malformed
 * input gets -32700 or -32600 with one sentence (the SDK would answer an empty batch `[]` with
 * 202 and no body, and a bad message with "Parse error").
 */
import type { IncomingMessage } from "node:http";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, SpillwayError } from "../errors";
import { readBody } from "../http/respond";
import { INVALID_REQUEST, PARSE_ERROR, checkMessage, mb, parseJsonBytes, type RpcErrorBody } from "./jsonRpcMessage";
import { MAX_MESSAGE_BYTES } from "./lineReader";

export type McpBody = { ok: true; body: unknown } | { ok: false; status: number; id: RequestId | null; error: RpcErrorBody };

const fail = (status: number, code: number, message: string, id: RequestId | null = null): McpBody => ({
  ok: false,
  status,
  id,
  error: { code, message },
});

export async function readMcpBody(req: IncomingMessage, limit = MAX_MESSAGE_BYTES): Promise<McpBody> {
  let raw: Buffer;
  try {
    raw = await readBody(req, limit);
  } catch (err) {
    if (err instanceof SpillwayError && err.code === ErrorCode.TooLarge) {
      return fail(
        413,
        INVALID_REQUEST,
        `Invalid Request: the body is over the ${mb(limit)} limit of one message; send less (pass a large value by spill:<id> or a file path).`,
      );
    }
    throw err;
  }
  if (raw.length === 0) return fail(400, PARSE_ERROR, "Parse error: the request body is empty; send a JSON-RPC message.");
  const parsed = parseJsonBytes(raw);
  if (!parsed.ok) return fail(400, parsed.error.code, parsed.error.message);
  const value = parsed.value;
  if (Array.isArray(value)) {
    if (value.length === 0) return fail(400, INVALID_REQUEST, "Invalid Request: the batch is empty; send at least one JSON-RPC message.");
    for (let i = 0; i < value.length; i++) {
      const c = checkMessage(value[i]);
      if (!c.ok)
        return fail(
          400,
          INVALID_REQUEST,
          `Invalid Request: message ${i + 1} of the batch is wrong: ${c.error.message.replace(/^Invalid Request: /, "")}`,
        );
    }
    return { ok: true, body: value };
  }
  const c = checkMessage(value);
  if (!c.ok) return fail(400, c.error.code, c.error.message, c.id);
  return { ok: true, body: value };
}
