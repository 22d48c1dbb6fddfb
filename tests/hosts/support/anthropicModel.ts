/**
 * A scripted model behind the Anthropic Messages API (what Claude Code calls at ANTHROPIC_BASE_URL):
 * `POST /v1/messages`, streamed as SSE when asked, answered by a policy the test writes. Every
 * request is logged, so a test asserts what the model was actually given, not what Spillway meant
 * to give it.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The parts of a Messages request the policies read. */
export interface MessagesRequest {
  model: string;
  system?: string | { type: string; text?: string }[];
  messages: { role: "user" | "assistant"; content: string | Block[] }[];
  tools?: { name: string; description?: string; input_schema?: unknown }[];
  stream?: boolean;
  max_tokens?: number;
}

export interface Block {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | Block[];
  is_error?: boolean;
}

/** What the model answers: text, one tool call, or raw content blocks (server tools such as web search). */
export type Reply = { text: string } | { tool: string; input: Record<string, unknown> } | { blocks: Block[] };

export interface LoggedRequest {
  path: string;
  body: MessagesRequest;
  /** The exact bytes Claude Code sent, for size figures. */
  raw: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export type Policy = (req: MessagesRequest) => Reply;

export interface ModelServer {
  url: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${(++counter).toString(36).padStart(8, "0")}${Date.now().toString(36)}`;

function contentOf(reply: Reply): Block[] {
  if ("blocks" in reply) return reply.blocks;
  if ("text" in reply) return [{ type: "text", text: reply.text }];
  return [{ type: "tool_use", id: nextId("toolu"), name: reply.tool, input: reply.input }];
}

/** The SSE events of one streamed message, in the order the Messages API sends them. */
function sseEvents(model: string, content: Block[], stopReason: string): string {
  const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const usage = { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const out = [
    ev("message_start", {
      type: "message_start",
      message: { id: nextId("msg"), type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage },
    }),
  ];
  content.forEach((b, index) => {
    if (b.type === "text") {
      out.push(ev("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }));
      out.push(ev("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } }));
    } else if (b.type === "tool_use" || b.type === "server_tool_use") {
      out.push(
        ev("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: b.type, id: b.id, name: b.name, input: {} },
        }),
      );
      out.push(
        ev("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) },
        }),
      );
    } else {
      // Result blocks of server tools arrive whole in their start event.
      out.push(ev("content_block_start", { type: "content_block_start", index, content_block: b }));
    }
    out.push(ev("content_block_stop", { type: "content_block_stop", index }));
  });
  out.push(
    ev("message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 1 } }),
  );
  out.push(ev("message_stop", { type: "message_stop" }));
  return out.join("");
}

/** Starts the model on 127.0.0.1 (a free port). */
export async function startModelServer(policy: Policy): Promise<ModelServer> {
  const requests: LoggedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const raw = await readBody(req);
    if (req.method !== "POST" || !path.startsWith("/v1/messages")) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `no ${path} here` } }));
      return;
    }
    let body: MessagesRequest;
    try {
      body = JSON.parse(raw) as MessagesRequest;
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (path.endsWith("/count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
      return;
    }
    requests.push({ path, body, raw, at: Date.now() });
    let reply: Reply;
    try {
      reply = policy(body);
    } catch (err) {
      // A policy that cannot go on says so in text: the host then ends its turn and the test sees why.
      reply = { text: `POLICY ERROR: ${err instanceof Error ? err.message : String(err)}` };
    }
    const content = contentOf(reply);
    const stop = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
    if (body.stream) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).end(sseEvents(body.model, content, stop));
    } else {
      const usage = { input_tokens: 1, output_tokens: 1 };
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: nextId("msg"),
          type: "message",
          role: "assistant",
          model: body.model,
          content,
          stop_reason: stop,
          stop_sequence: null,
          usage,
        }),
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The text of a tool_result block (its content is a string or text blocks). */
export function resultText(b: Block): string {
  if (typeof b.content === "string") return b.content;
  return (b.content ?? []).flatMap((c) => (c.type === "text" && typeof c.text === "string" ? [c.text] : [])).join("\n");
}

/** The tool results in a request's last user message, in order. */
export function lastToolResults(req: MessagesRequest): Block[] {
  const last = req.messages[req.messages.length - 1];
  if (!last || last.role !== "user" || typeof last.content === "string") return [];
  return last.content.filter((b) => b.type === "tool_result");
}

/** How many tool calls the model made so far in this conversation (the policy's step counter). */
export function toolCallsSoFar(req: MessagesRequest): number {
  let n = 0;
  for (const m of req.messages)
    if (m.role === "assistant" && typeof m.content !== "string") n += m.content.filter((b) => b.type === "tool_use").length;
  return n;
}
