/**
 * The same 64 MB per-message limit for Streamable HTTP upstreams as for stdio ones: a fetch for the
 * SDK's client transport that watches each answer (a JSON body, or each event of an SSE stream).
 * A message over the limit is not buffered or parsed; in its place the client gets a JSON-RPC error
 * for the request it answered, so the call fails with a sentence naming the limit and the
 * connection keeps working.
 */
import { ANSWER_TOO_LARGE } from "./upstreamError";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { errorResponse, idOfOversized, looksLikeRequest, mb } from "./jsonRpcMessage";
import { MAX_MESSAGE_BYTES, firstBytes } from "./lineReader";

const KEEP = 4096;
/** As for stdio: an internal error, not the codes the SDK reads as "closed" or "timed out". */
const ANSWER_UNREADABLE = -32603;

/** The requests a POST body carries: id → what they asked for (the tool's name for tools/call). */
function requestsIn(body: unknown): Map<RequestId, string> {
  const out = new Map<RequestId, string>();
  if (typeof body !== "string") return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return out;
  }
  for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
    const r = m as { id?: RequestId; method?: string; params?: { name?: unknown } };
    if (r && typeof r.method === "string" && (typeof r.id === "string" || typeof r.id === "number")) {
      out.set(r.id, r.method === "tools/call" && typeof r.params?.name === "string" ? r.params.name : r.method);
    }
  }
  return out;
}

function tooLarge(requests: Map<RequestId, string>, id: RequestId, bytes: number, max: number) {
  const what = requests.get(id) ?? "the request";
  requests.delete(id);
  const message = `its answer to ${what} is ${mb(bytes)}, over the ${mb(max)} limit Spillway reads in one message; ask the tool for less (a narrower query, a page or a range)`;
  return errorResponse(id, { code: ANSWER_UNREADABLE, message, data: { reason: ANSWER_TOO_LARGE } });
}

/** The id an oversized message answered: named at either end, else the only request still open. */
function answeredId(requests: Map<RequestId, string>, head: Buffer, tail: Buffer, bytes: number): RequestId | null {
  const frag = { bytes, head, tail };
  if (looksLikeRequest(frag)) return null;
  const named = idOfOversized(frag);
  if (named !== null && requests.has(named)) return named;
  return requests.size === 1 ? [...requests.keys()][0]! : null;
}

/** Passes SSE events through whole; an event over the limit is dropped and replaced by an error event. */
function sseLimiter(requests: Map<RequestId, string>, max: number, onSkip: (why: string) => void): TransformStream<Uint8Array, Uint8Array> {
  let parts: Uint8Array[] = [];
  let size = 0;
  let skipping = false;
  let head: Buffer = Buffer.alloc(0);
  let tail: Buffer = Buffer.alloc(0);
  let lineLen = 0;
  let lastByte = 0;

  const take = (seg: Uint8Array) => {
    if (seg.length === 0) return;
    if (!skipping && size + seg.length > max) {
      skipping = true;
      head = firstBytes([...parts, seg], KEEP);
      parts = [];
    }
    size += seg.length;
    if (!skipping) parts.push(seg);
    else tail = seg.length >= KEEP ? Buffer.from(seg.subarray(seg.length - KEEP)) : Buffer.concat([tail, seg]).subarray(-KEEP);
  };
  const endEvent = (out: TransformStreamDefaultController<Uint8Array>) => {
    if (!skipping) {
      for (const p of parts) out.enqueue(p);
    } else {
      // Only the data of the event says whose answer it was.
      const data = (b: Buffer) => Buffer.from(b.toString("utf8").replace(/^[\s\S]*?data:\s?/, ""));
      const id = answeredId(requests, data(head), Buffer.from(tail.toString("utf8").trimEnd()), size);
      if (id === null) onSkip(`an event of ${mb(size)} on the stream, over the ${mb(max)} limit, was skipped`);
      else out.enqueue(new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(tooLarge(requests, id, size, max))}\n\n`));
    }
    parts = [];
    size = 0;
    skipping = false;
    head = Buffer.alloc(0);
    tail = Buffer.alloc(0);
  };

  return new TransformStream({
    transform(bytes, out) {
      const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let start = 0;
      let pos = 0;
      for (;;) {
        const nl = chunk.indexOf(10, pos);
        if (nl === -1) break;
        const len = lineLen + (nl - pos);
        const before = nl > 0 ? chunk[nl - 1]! : lastByte;
        lineLen = 0;
        pos = nl + 1;
        // A blank line ("\n" or "\r\n" alone) ends the event.
        if (len === 0 || (len === 1 && before === 13)) {
          take(chunk.subarray(start, pos));
          endEvent(out);
          start = pos;
        }
      }
      lineLen += chunk.length - pos;
      if (chunk.length) lastByte = chunk[chunk.length - 1]!;
      take(chunk.subarray(start));
    },
    flush(out) {
      if (size > 0) endEvent(out);
    },
  });
}

/** Reads a JSON answer up to the limit; past it, the error for the request(s) it answered instead. */
async function limitedJson(res: Response, requests: Map<RequestId, string>, max: number): Promise<Response> {
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      const errors = [...requests.keys()].map((id) => tooLarge(requests, id, size, max));
      return new Response(JSON.stringify(errors.length === 1 ? errors[0] : errors), {
        status: res.status,
        headers: headersWithout(res.headers, "content-length"),
      });
    }
    parts.push(value);
  }
  return new Response(Buffer.concat(parts), { status: res.status, headers: res.headers });
}

function headersWithout(h: Headers, name: string): Headers {
  const out = new Headers(h);
  out.delete(name);
  return out;
}

/** Requests an HTTP+SSE connection keeps for naming an oversized answer; older ones are forgotten. */
const KEPT_REQUESTS = 256;

/**
 * A fetch that holds every upstream answer to `max` bytes per message (default 64 MB).
 * `pending` is for HTTP+SSE, where answers do not come on the POST that asked but on one GET
 * stream: the POSTs' requests are kept in it (the latest 256), and the stream names its oversized
 * answers from it.
 */
export function limitedFetch(
  max = MAX_MESSAGE_BYTES,
  base: FetchLike = fetch,
  onSkip: (why: string) => void = () => {},
  pending?: Map<RequestId, string>,
): FetchLike {
  return async (url, init) => {
    const requests = requestsIn(init?.body);
    if (pending) {
      for (const [id, what] of requests) {
        pending.delete(id);
        pending.set(id, what);
      }
      for (const id of pending.keys()) {
        if (pending.size <= KEPT_REQUESTS) break;
        pending.delete(id);
      }
    }
    const res = await base(url, init);
    if (!res.body || !res.ok) return res;
    const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type === "text/event-stream") {
      const body = res.body.pipeThrough(sseLimiter(pending ?? requests, max, onSkip));
      return new Response(body, { status: res.status, statusText: res.statusText, headers: headersWithout(res.headers, "content-length") });
    }
    if (type === "application/json") return limitedJson(res, requests, max);
    return res;
  };
}
