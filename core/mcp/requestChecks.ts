/**
 * Checks the params of each incoming MCP request before the SDK's Server sees it. The Server would
 * answer a bad `uri` or `cursor` with -32603 and zod's issue list as the message; here the client
 * gets -32602 and one sentence naming the parameter. Wraps any server transport (stdio or HTTP), and
 * so also sees every error the Server answers with (plainErrors).
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from "@modelcontextprotocol/sdk/types.js";
import { INVALID_PARAMS, errorResponse, type RpcErrorBody } from "./jsonRpcMessage";
import { TransportWrapper } from "./transportWrapper";

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
}
interface Checkable {
  safeParse(v: unknown): { success: true } | { success: false; error: { issues: Issue[] } };
}

const SCHEMAS: Record<string, Checkable> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "resources/list": ListResourcesRequestSchema,
  "resources/templates/list": ListResourceTemplatesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
  "resources/subscribe": SubscribeRequestSchema,
  "resources/unsubscribe": UnsubscribeRequestSchema,
  "prompts/list": ListPromptsRequestSchema,
  "prompts/get": GetPromptRequestSchema,
  "completion/complete": CompleteRequestSchema,
  "logging/setLevel": SetLevelRequestSchema,
} as unknown as Record<string, Checkable>;

function typeName(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  const t = typeof v;
  return t === "object" ? "an object" : t === "string" ? "a string" : t === "number" ? "a number" : t === "boolean" ? "a boolean" : t;
}

function at(root: unknown, path: PropertyKey[]): unknown {
  let v = root;
  for (const k of path) v = v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  record: "an object",
};

/** One sentence for the first problem zod found in a request. */
function sentence(method: string, request: unknown, issue: Issue): string {
  const inParams = issue.path[0] === "params" ? issue.path.slice(1) : issue.path;
  const name = inParams.length ? `"${inParams.map(String).join(".")}"` : "params";
  const got = at(request, issue.path);
  if (issue.code === "invalid_type" && got === undefined) return `Invalid params for ${method}: ${name} is required.`;
  if (issue.code === "invalid_type" && issue.expected) {
    return `Invalid params for ${method}: ${name} must be ${EXPECTED[issue.expected] ?? issue.expected}, not ${typeName(got)}.`;
  }
  if (issue.code === "invalid_value" || issue.code === "invalid_union")
    return `Invalid params for ${method}: ${name} has a value that is not allowed (${typeName(got)}).`;
  return `Invalid params for ${method}: ${name} is not valid (${issue.message.split("\n")[0]!.slice(0, 120)}).`;
}

/** The -32602 error for a request whose params do not fit its method, or null when they do (or the method is not one we check). */
export function checkParams(message: JSONRPCMessage): RpcErrorBody | null {
  if (!isJSONRPCRequest(message)) return null;
  const schema = SCHEMAS[message.method];
  if (!schema) return null;
  const r = schema.safeParse(message);
  if (r.success) return null;
  const issue = r.error.issues[0];
  if (!issue) return { code: INVALID_PARAMS, message: `Invalid params for ${message.method}.` };
  return { code: INVALID_PARAMS, message: sentence(message.method, message, issue) };
}

/**
 * The error without the "MCP error <code>: " heads of McpError.message. The SDK's Server sends a
 * thrown error's `message` as it is, and a client's SDK puts the head in front again: our own
 * refusals reached the client with two, an upstream's (through our client's McpError) with three.
 */
function plainErrors(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCErrorResponse(message)) return message;
  const head = `MCP error ${message.error.code}: `;
  let text = message.error.message;
  while (text.startsWith(head)) text = text.slice(head.length);
  return text === message.error.message ? message : { ...message, error: { ...message.error, message: text } };
}

/** A transport that answers requests with bad params itself and hands the rest to the Server. */
export class CheckedTransport extends TransportWrapper {
  private chain: Promise<void> = Promise.resolve();

  /** `gate`, when given, is awaited before each message is handed on (in order): backpressure. */
  constructor(
    inner: Transport,
    private readonly gate?: () => Promise<void>,
  ) {
    super(inner);
  }

  protected override received(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const gate = this.gate;
    if (!gate) return this.deliver(message, extra);
    this.chain = this.chain.then(gate).then(
      () => this.deliver(message, extra),
      (err: Error) => this.onerror?.(err),
    );
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(plainErrors(message), options);
  }

  private deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const bad = checkParams(message);
    if (bad && isJSONRPCRequest(message)) {
      this.inner.send(errorResponse(message.id, bad), { relatedRequestId: message.id }).catch((err: Error) => this.onerror?.(err));
      return;
    }
    this.onmessage?.(message, extra);
  }
}
