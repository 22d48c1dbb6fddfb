/**
 * Sessions with @modelcontextprotocol/server-everything: debugging an MCP setup with the SDK's
 * own sources at hand (filesystem over a copy of the SDK's dist/esm), and a control session of
 * small results only, where Spillway has nothing to save and costs its tool definitions.
 */
import { join } from "node:path";
import type { Session } from "../agent";
import { freshDir, packageDir, upstream, worldPath } from "./world";

/** The whole text of a small result as the answer (the model reads it as it is). */
const whole = (raw: string) => [raw.trim()];
/** The first match of `re` in the raw result. */
const match = (re: RegExp) => (raw: string) => [re.exec(raw)![0]];

const DEBUG = "mcp-debugging";
const sdk = (file: string) => ({ tool: "read_text_file", args: { path: worldPath(DEBUG, "sdk", file) } });

export const mcpDebugging: Session = {
  name: DEBUG,
  description: "everything + filesystem over the MCP SDK's sources: check a server's behaviour against the code",
  async setup() {
    const dir = freshDir(DEBUG, { sdk: join(packageDir("@modelcontextprotocol/sdk"), "dist/esm") });
    return { servers: { everything: upstream.everything(), fs: upstream.filesystem(dir.path) }, cleanup: dir.cleanup };
  },
  turns: [
    { question: "Which HOME does the everything server see?", calls: [{ tool: "get-env", args: {} }], answer: match(/"HOME": "[^"]*"/) },
    {
      question: "What is the latest MCP protocol version the SDK speaks?",
      calls: [sdk("types.js")],
      answer: ["LATEST_PROTOCOL_VERSION = '2025-11-25'"],
      lookup: { mode: "grep", pattern: "LATEST_PROTOCOL_VERSION" },
    },
    {
      question: "What does get-structured-content return for Chicago?",
      calls: [{ tool: "get-structured-content", args: { location: "Chicago" } }],
      answer: whole,
    },
    {
      question: "What is the SDK's default request timeout?",
      calls: [sdk("shared/protocol.js")],
      answer: ["DEFAULT_REQUEST_TIMEOUT_MSEC = 60000"],
      lookup: { mode: "grep", pattern: "TIMEOUT" },
    },
    {
      question: "What is the URI of the seventh resource link?",
      calls: [{ tool: "get-resource-links", args: { count: 10 } }],
      answer: match(/demo:\/\/resource\/dynamic\/\w+\/7/),
    },
    {
      question: "Which protocol versions does the SDK accept?",
      calls: [sdk("types.js")],
      answer: ["SUPPORTED_PROTOCOL_VERSIONS = [LATEST_PROTOCOL_VERSION, '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']"],
      lookup: { mode: "grep", pattern: "SUPPORTED_PROTOCOL_VERSIONS" },
    },
    {
      question: "Does echo still answer after the config change?",
      calls: [{ tool: "echo", args: { message: "ping after config change" } }],
      answer: whole,
    },
    {
      question: "What does registerTool do with a duplicate tool name?",
      calls: [sdk("server/mcp.js")],
      answer: ["throw new Error(`Tool ${name} is already registered`);"],
      lookup: { mode: "grep", pattern: "already registered" },
    },
    {
      question: "What error does a request get when it times out?",
      calls: [sdk("shared/protocol.js")],
      answer: ["McpError.fromError(ErrorCode.RequestTimeout, 'Request timed out', { timeout })"],
      lookup: { mode: "grep", pattern: "timed out" },
    },
    {
      question: "What does an annotated success message look like?",
      calls: [{ tool: "get-annotated-message", args: { messageType: "success" } }],
      answer: whole,
    },
  ],
};

export const smallResults: Session = {
  name: "small-results",
  description: "everything only: small results, nothing to rescue or stub (control)",
  setup: async () => ({ servers: { everything: upstream.everything() }, cleanup: () => {} }),
  turns: [
    { question: "Is the server up?", calls: [{ tool: "echo", args: { message: "hello" } }], answer: whole },
    { question: "What is 1234 + 4321?", calls: [{ tool: "get-sum", args: { a: 1234, b: 4321 } }], answer: match(/5555/) },
    {
      question: "What is the weather in New York?",
      calls: [{ tool: "get-structured-content", args: { location: "New York" } }],
      answer: whole,
    },
    { question: "And in Los Angeles?", calls: [{ tool: "get-structured-content", args: { location: "Los Angeles" } }], answer: whole },
    {
      question: "Which resources can I read? Give three.",
      calls: [{ tool: "get-resource-links", args: { count: 3 } }],
      answer: match(/demo:\/\/resource\/dynamic\/\w+\/3/),
    },
    {
      question: "What does an error message look like?",
      calls: [{ tool: "get-annotated-message", args: { messageType: "error" } }],
      answer: whole,
    },
    { question: "Which PATH does the server see?", calls: [{ tool: "get-env", args: {} }], answer: match(/"PATH": "[^"]*"/) },
    { question: "Echo the release name back.", calls: [{ tool: "echo", args: { message: "spillway economy" } }], answer: whole },
  ],
};
