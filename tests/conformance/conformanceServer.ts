/**
 * An MCP server written from the server scenarios of @modelcontextprotocol/conformance 0.1.16
 * (their "Server Implementation Requirements"): the tools, resources, prompts, completion and
 * logging each scenario asks for, over stateful Streamable HTTP with an in-memory event store
 * (resumability) and DNS-rebinding protection. Run: `node --import tsx conformanceServer.ts`; it
 * prints its /mcp URL on stdout.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport, type EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ElicitResultSchema,
  CreateMessageResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { tools } from "./conformanceTools";

// A 1x1 red PNG and a minimal silent WAV (44-byte header, no samples).
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = Buffer.concat([
  Buffer.from("RIFF"),
  Buffer.from([36, 0, 0, 0]),
  Buffer.from("WAVEfmt "),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0]),
  Buffer.from("data"),
  Buffer.alloc(4),
]).toString("base64");
const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keeps every event so a client reconnecting with Last-Event-ID gets what it missed. */
class MemoryEventStore implements EventStore {
  private events: { id: string; stream: string; message: JSONRPCMessage }[] = [];
  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}_${this.events.length}`;
    this.events.push({ id, stream, message });
    return id;
  }
  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === id)?.stream;
  }
  async replayEventsAfter(lastId: string, { send }: { send: (id: string, m: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastId);
    if (at < 0) return "";
    const stream = this.events[at]!.stream;
    for (const e of this.events.slice(at + 1)) if (e.stream === stream) await send(e.id, e.message);
    return stream;
  }
}

function mcpServer(): Server {
  const server = new Server(
    { name: "spillway-conformance-upstream", version: "1.0.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const args = (req.params.arguments ?? {}) as Record<string, string>;
    switch (req.params.name) {
      case "test_simple_text":
        return text("This is a simple text response for testing.");
      case "test_image_content":
        return { content: [{ type: "image", data: PNG, mimeType: "image/png" }] };
      case "test_audio_content":
        return { content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] };
      case "test_embedded_resource":
        return {
          content: [
            {
              type: "resource",
              resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
            },
          ],
        };
      case "test_multiple_content_types":
        return {
          content: [
            { type: "text", text: "Multiple content types test:" },
            { type: "image", data: PNG, mimeType: "image/png" },
            {
              type: "resource",
              resource: {
                uri: "test://mixed-content-resource",
                mimeType: "application/json",
                text: JSON.stringify({ test: "data", value: 123 }),
              },
            },
          ],
        };
      case "test_tool_with_logging":
        for (const [i, data] of ["Tool execution started", "Tool processing data", "Tool execution completed"].entries()) {
          if (i) await pause(50);
          await server.sendLoggingMessage({ level: "info", data }, extra.sessionId);
        }
        return text("Tool with logging executed successfully");
      case "test_error_handling":
        return { isError: true, content: [{ type: "text", text: "This tool intentionally returns an error for testing" }] };
      case "test_tool_with_progress": {
        const token = req.params._meta?.progressToken;
        for (const progress of [0, 50, 100]) {
          if (progress) await pause(50);
          if (token !== undefined)
            await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, total: 100 } });
        }
        return text("Tool with progress executed successfully");
      }
      case "test_sampling": {
        const r = await extra.sendRequest(
          {
            method: "sampling/createMessage",
            params: { messages: [{ role: "user", content: { type: "text", text: args.prompt ?? "" } }], maxTokens: 100 },
          },
          CreateMessageResultSchema,
        );
        return text(`LLM response: ${r.content.type === "text" ? r.content.text : r.content.type}`);
      }
      case "test_elicitation":
      case "test_elicitation_sep1034_defaults":
      case "test_elicitation_sep1330_enums": {
        const schema = tools.find((t) => t.name === req.params.name)!._meta!.requestedSchema;
        const r = await extra.sendRequest(
          { method: "elicitation/create", params: { message: args.message ?? "Please answer", requestedSchema: schema as never } },
          ElicitResultSchema,
        );
        return text(`Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`);
      }
      case "json_schema_2020_12_tool":
        return text(`received ${JSON.stringify(args)}`);
      case "test_reconnection":
        // Closes the POST stream mid-call: the client comes back with Last-Event-ID for the result.
        await pause(100);
        extra.closeSSEStream?.();
        await pause(200);
        return text("Reconnection test completed successfully");
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      { uri: "test://static-text", name: "static-text", description: "A static text resource", mimeType: "text/plain" },
      { uri: "test://static-binary", name: "static-binary", description: "A static binary resource", mimeType: "image/png" },
      { uri: "test://watched-resource", name: "watched-resource", description: "A resource to subscribe to", mimeType: "text/plain" },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      { uriTemplate: "test://template/{id}/data", name: "template-data", description: "Data for an id", mimeType: "application/json" },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const { uri } = req.params;
    if (uri === "test://static-text")
      return { contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }] };
    if (uri === "test://static-binary") return { contents: [{ uri, mimeType: "image/png", blob: PNG }] };
    if (uri === "test://watched-resource") return { contents: [{ uri, mimeType: "text/plain", text: "Watched resource content." }] };
    const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (m)
      return {
        contents: [
          { uri, mimeType: "application/json", text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) },
        ],
      };
    throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`);
  });
  server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
  server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      { name: "test_simple_prompt", description: "A simple prompt without arguments" },
      {
        name: "test_prompt_with_arguments",
        description: "A prompt with arguments",
        arguments: [
          { name: "arg1", description: "First argument", required: true },
          { name: "arg2", description: "Second argument", required: true },
        ],
      },
      {
        name: "test_prompt_with_embedded_resource",
        description: "A prompt with an embedded resource",
        arguments: [{ name: "resourceUri", description: "URI of the resource", required: true }],
      },
      { name: "test_prompt_with_image", description: "A prompt with an image" },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const a = req.params.arguments ?? {};
    switch (req.params.name) {
      case "test_simple_prompt":
        return { messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }] };
      case "test_prompt_with_arguments":
        return {
          messages: [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'` } }],
        };
      case "test_prompt_with_embedded_resource":
        return {
          messages: [
            {
              role: "user",
              content: {
                type: "resource",
                resource: {
                  uri: a.resourceUri ?? "test://example-resource",
                  mimeType: "text/plain",
                  text: "Embedded resource content for testing.",
                },
              },
            },
            { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
          ],
        };
      case "test_prompt_with_image":
        return {
          messages: [
            { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
            { role: "user", content: { type: "text", text: "Please analyze the image above." } },
          ],
        };
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${req.params.name}`);
    }
  });
  server.setRequestHandler(CompleteRequestSchema, async (req) => {
    const candidates = ["paris", "park", "party", "test-value", "testing"];
    const values = candidates.filter((c) => c.startsWith(req.params.argument.value));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  return raw ? JSON.parse(raw) : undefined;
}

const sessions = new Map<string, StreamableHTTPServerTransport>();
const http = createServer(async (req, res) => {
  try {
    const port = (http.address() as { port: number }).port;
    const hosts = [`localhost:${port}`, `127.0.0.1:${port}`];
    const id = req.headers["mcp-session-id"] as string | undefined;
    const parsed = req.method === "POST" ? await body(req) : undefined;
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      if (id || req.method !== "POST") {
        res
          .writeHead(id ? 404 : 400)
          .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Unknown or missing session" } }));
        return;
      }
      const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        eventStore: new MemoryEventStore(),
        retryInterval: 500,
        enableDnsRebindingProtection: true,
        allowedHosts: hosts,
        allowedOrigins: hosts.map((h) => `http://${h}`),
        onsessioninitialized: (sid) => void sessions.set(sid, t),
      });
      t.onclose = () => void (t.sessionId && sessions.delete(t.sessionId));
      await mcpServer().connect(t);
      transport = t;
    }
    await transport.handleRequest(req, res, parsed);
  } catch (err) {
    if (!res.headersSent)
      res.writeHead(500).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: String(err) } }));
  }
});
http.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://localhost:${(http.address() as { port: number }).port}/mcp\n`);
});
process.on("SIGTERM", () => process.exit(0));
