/**
 * A scripted model endpoint on 127.0.0.1: each host's wire format is an adapter over the one
 * policy, and every request is logged with what the model was given, so a test asserts on what
 * the model actually received rather than on what the host printed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, inflateSync, brotliDecompressSync } from "node:zlib";
import { createTokenCounter } from "../../../core/savings/tokens";
import { nextAction, type Action, type TurnView } from "./policy";

/** One host wire format (Responses, Gemini, chat completions). */
export interface WireAdapter {
  /** Whether this adapter serves the request at all (path and method). */
  accepts(method: string, url: string): boolean;
  /** The model-facing view of a request. `main` is false for side requests (titles, checks). */
  read(body: unknown, url: string): { view: TurnView; main: boolean; prompt: unknown };
  /** Writes the answer: the policy's action for a main request, a short text for a side one. */
  write(
    res: ServerResponse,
    action: Action | { type: "side"; text: string },
    ctx: { n: number; body: unknown; url: string; promptTokens: number },
  ): void;
}

export interface LoggedRequest {
  n: number;
  url: string;
  main: boolean;
  /** The tool names offered, as the model must call them. */
  tools: string[];
  results: TurnView["results"];
  action: Action | { type: "side"; text: string };
  /** Size of what the host sent as the prompt (instructions, history, tool schemas). */
  promptChars: number;
  promptTokens: number;
  /** Chars of tool results inside that prompt. */
  resultChars: number;
  body: unknown;
}

export interface ModelServer {
  url: string;
  requests: LoggedRequest[];
  /** Requests the host sent that no adapter understood (each is answered 404). */
  unknown: string[];
  close(): Promise<void>;
}

const tokens = createTokenCounter("o200k_base");

function decode(req: IncomingMessage, raw: Buffer): Buffer {
  const enc = String(req.headers["content-encoding"] ?? "").toLowerCase();
  if (!enc || enc === "identity") return raw;
  if (enc === "gzip") return gunzipSync(raw);
  if (enc === "deflate") return inflateSync(raw);
  if (enc === "br") return brotliDecompressSync(raw);
  throw new Error(`unsupported request content-encoding ${enc}`);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = decode(req, Buffer.concat(chunks)).toString("utf8");
  return text ? JSON.parse(text) : {};
}

/**
 * Starts a scripted model on an ephemeral loopback port. `sideText` answers side requests;
 * `policy` decides main requests (the host tests' one policy unless another script needs its own).
 */
export async function startModelServer(
  adapter: WireAdapter,
  sideText = "Scripted run",
  policy: (view: TurnView) => Action = nextAction,
): Promise<ModelServer> {
  const requests: LoggedRequest[] = [];
  const unknown: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    if (!adapter.accepts(req.method ?? "GET", url)) {
      unknown.push(`${req.method} ${url}`);
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `scripted model: no route ${url}` } }));
      return;
    }
    const body = await readBody(req);
    const { view, main, prompt } = adapter.read(body, url);
    const promptText = JSON.stringify(prompt);
    const promptTokens = tokens.count(promptText);
    const action = main ? policy(view) : ({ type: "side", text: sideText } as const);
    requests.push({
      n: requests.length + 1,
      url,
      main,
      tools: view.tools.map((t) => (t.namespace ? `${t.namespace}.${t.call}` : t.call)),
      results: view.results,
      action,
      promptChars: promptText.length,
      promptTokens,
      resultChars: view.results.reduce((s, r) => s + r.text.length, 0),
      body,
    });
    adapter.write(res, action, { n: requests.length, body, url, promptTokens });
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      unknown.push(`${req.method} ${req.url}: ${String(err)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unknown,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes server-sent events, one `data:` line per JSON payload (with an `event:` line when named). */
export function sse(res: ServerResponse, events: { event?: string; data: unknown }[], done?: string): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "close" });
  for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ""}data: ${JSON.stringify(e.data)}\n\n`);
  if (done) res.write(`data: ${done}\n\n`);
  res.end();
}

/** The `text` of each content part (`{type, text}` items), in order. */
export function textParts(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((p) =>
    p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string" ? [(p as { text: string }).text] : [],
  );
}

/** Every string inside a JSON value, in order: tool results come in several shapes per host. */
export function stringsIn(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsIn(x, out);
  else if (v && typeof v === "object") for (const x of Object.values(v)) stringsIn(x, out);
  return out;
}
