/**
 * Long sessions, the length of a coding agent's session doing one piece of work (60–80
 * requests): `feature-work` implements retry-on-503 in the MCP SDK's HTTP client transport
 * (filesystem over a copy of the SDK's dist/esm and README; the fixture's test runner stands in
 * for the project's suite), and `incident-long` (longIncident.ts) investigates a failed nightly run.
 */
import { join } from "node:path";
import type { Session, Turn } from "../agent";
import { freshDir, packageDir, upstream, worldPath } from "./world";

export { incidentLong } from "./longIncident";

const WORK = "feature-work";
const at = (file: string) => worldPath(WORK, "sdk", file);
const read = (file: string) => ({ tool: "read_text_file", args: { path: at(file) } });
const edit = (file: string, oldText: string, newText: string) => ({
  tool: "edit_file",
  args: { path: at(file), edits: [{ oldText, newText }] },
});
const run = (area?: string) => ({ tool: "run_tests", args: area ? { area } : {} });
const fix = (name: string) => ({ tool: "apply_fix", args: { fix: name } });
const failing = (test: string) => [`× ${test}`, `FAIL  ${test}`];
const passing = (test: string) => `✓ ${test}`;
const lineOf = (prefix: string) => (raw: string) => [
  raw
    .split("\n")
    .find((l) => l.trim().startsWith(prefix))!
    .trim(),
];

const JS = "client/streamableHttp.js";
const DTS = "client/streamableHttp.d.ts";
const OPTION_DOC = "Retry a POST once, after the initial reconnection delay, when the server answers 503 Service Unavailable.";
const POST_RETRY = "if (response.status === 503 && this._retryOn503 && !options?.retried503) {";
const SSE_RETRY = "return await this._startOrAuthSse({ ...options, retried503: true });";
const POST_THROW =
  "throw new StreamableHTTPError(response.status, `Error POSTing to endpoint: ${this._unfollowedRedirect(response, this._url) ?? text}`);";

const turns: Turn[] = [
  {
    question: "What does the SDK's package folder hold?",
    calls: [{ tool: "list_directory", args: { path: worldPath(WORK, "sdk") } }],
    answer: ["[DIR] client", "[DIR] shared"],
  },
  {
    question: "Show the tree without source maps: where does the HTTP client transport live?",
    calls: [{ tool: "directory_tree", args: { path: worldPath(WORK, "sdk"), excludePatterns: ["**/*.map"] } }],
    answer: ['"name": "streamableHttp.js"'],
    lookup: { mode: "grep", pattern: "streamableHttp" },
  },
  {
    question: "Run the suite before changing anything: which tests fail?",
    calls: [run()],
    answer: [failing("src/api/client.test.ts > retries on 503"), failing("src/ledger/rounding.test.ts > rounds half-even")],
    lookup: { mode: "grep", pattern: "×" },
  },
  {
    question: "What does the 503 test expect, and at which line?",
    calls: [run("api")],
    answer: ["Error: expected 2 calls to fetch, got 1", "src/api/client.test.ts:88:23"],
    lookup: { mode: "grep", pattern: "Error|❯" },
  },
  {
    question: "How does the transport's send() treat a non-OK POST response, and what are the default reconnection options?",
    calls: [read(JS)],
    answer: [POST_THROW, "maxRetries: 2"],
    lookup: { mode: "grep", pattern: "Error POSTing|maxRetries|initialReconnectionDelay:" },
  },
  {
    question: "Which options does the transport's constructor take?",
    calls: [read(DTS)],
    answer: ["reconnectionOptions?: StreamableHTTPReconnectionOptions;", "redirectPolicy?: 'same-origin' | 'follow';"],
    lookup: { mode: "grep", pattern: "\\?:" },
  },
  {
    question: "Which files implement Streamable HTTP?",
    calls: [{ tool: "search_files", args: { path: worldPath(WORK, "sdk"), pattern: "**/*treamableHttp.js" } }],
    answer: [at("client/streamableHttp.js"), at("server/webStandardStreamableHttp.js")],
  },
  {
    question: "What does the server answer a request for an unknown session?",
    calls: [read("server/webStandardStreamableHttp.js")],
    answer: ["return this.createJsonErrorResponse(404, -32001, 'Session not found');"],
    lookup: { mode: "grep", pattern: "Session not found" },
  },
  {
    question: "How does fetchWithinOrigin treat a request that asks for manual redirects?",
    calls: [read("shared/transport.js")],
    answer: ["if (init?.redirect === 'error' || init?.redirect === 'manual') {"],
    lookup: { mode: "grep", pattern: "redirect ===" },
  },
  {
    question: "How does Protocol.request() surface a rejected transport send, and what is the default timeout?",
    calls: [read("shared/protocol.js")],
    answer: [
      "this._transport.send(jsonrpcRequest, { relatedRequestId, resumptionToken, onresumptiontoken }).catch(error => {",
      "DEFAULT_REQUEST_TIMEOUT_MSEC = 60000",
    ],
    lookup: { mode: "grep", pattern: "_transport.send\\(jsonrpcRequest|DEFAULT_REQUEST_TIMEOUT_MSEC =" },
  },
  {
    question: "How does Client.callTool reach the transport?",
    calls: [read("client/index.js")],
    answer: ["const result = await this.request({ method: 'tools/call', params }, resultSchema, options);"],
    lookup: { mode: "grep", pattern: "tools/call" },
  },
  {
    question: "Add a retryOn503 option to the options type; does the declaration file show it?",
    calls: [
      edit(
        DTS,
        "    reconnectionOptions?: StreamableHTTPReconnectionOptions;\n",
        `    reconnectionOptions?: StreamableHTTPReconnectionOptions;\n    /**\n     * ${OPTION_DOC} Defaults to true.\n     */\n    retryOn503?: boolean;\n`,
      ),
      read(DTS),
    ],
    answer: ["retryOn503?: boolean;"],
    lookup: { mode: "grep", pattern: "retryOn503" },
  },
  {
    question: "Declare the private field beside _reconnectionOptions; what does the diff show?",
    calls: [edit(DTS, "    private _reconnectionOptions;\n", "    private _reconnectionOptions;\n    private _retryOn503;\n")],
    answer: ["+    private _retryOn503;"],
  },
  {
    question: "Read the option in the constructor; is the line in the file?",
    calls: [
      edit(
        JS,
        "        this._reconnectionOptions = opts?.reconnectionOptions ?? DEFAULT_STREAMABLE_HTTP_RECONNECTION_OPTIONS;\n",
        "        this._reconnectionOptions = opts?.reconnectionOptions ?? DEFAULT_STREAMABLE_HTTP_RECONNECTION_OPTIONS;\n        this._retryOn503 = opts?.retryOn503 ?? true;\n",
      ),
      read(JS),
    ],
    answer: ["this._retryOn503 = opts?.retryOn503 ?? true;"],
    lookup: { mode: "grep", pattern: "_retryOn503" },
  },
  {
    question: "Retry the POST once on 503 before throwing; does send() now hold the branch?",
    calls: [
      edit(
        JS,
        `                ${POST_THROW}\n`,
        `                ${POST_RETRY}\n                    await new Promise(resolve => setTimeout(resolve, this._reconnectionOptions.initialReconnectionDelay));\n                    return this.send(message, { ...options, retried503: true });\n                }\n                ${POST_THROW}\n`,
      ),
      read(JS),
    ],
    answer: [POST_RETRY, "return this.send(message, { ...options, retried503: true });"],
    lookup: { mode: "chain", pattern: "response.status === 503", context: 4 },
  },
  {
    question: "Rebuild and run the api tests: does the retry test pass now?",
    calls: [fix("retry on 503"), run("api")],
    answer: [passing("src/api/client.test.ts > retries on 503"), "Tests  81 passed (81)"],
    lookup: { mode: "grep", pattern: "retries on 503|Tests " },
  },
  {
    question: "The GET that opens the SSE stream should retry too: how does it treat a non-OK response today?",
    calls: [read(JS)],
    answer: ["if (response.status === 405) {", "`Failed to open SSE stream: ${"],
    lookup: { mode: "chain", pattern: "Failed to open SSE stream", context: 8 },
  },
  {
    question: "Retry the SSE GET once on 503 as well; is the branch in the file?",
    calls: [
      edit(
        JS,
        "                if (response.status === 405) {\n                    return;\n                }\n",
        `                if (response.status === 405) {\n                    return;\n                }\n                if (response.status === 503 && this._retryOn503 && !options?.retried503) {\n                    await new Promise(resolve => setTimeout(resolve, this._reconnectionOptions.initialReconnectionDelay));\n                    ${SSE_RETRY}\n                }\n`,
      ),
      read(JS),
    ],
    answer: [SSE_RETRY],
    lookup: { mode: "grep", pattern: "retried503" },
  },
  {
    question: "Full suite with both retries: what still fails?",
    calls: [run()],
    answer: [failing("src/ledger/rounding.test.ts > rounds half-even"), passing("src/api/client.test.ts > retries on 503")],
    lookup: { mode: "grep", pattern: "×|retries on 503" },
  },
  {
    question: "The ledger failure blocks the merge: what does it report?",
    calls: [run("ledger")],
    answer: ["AssertionError: expected 0.5 to be 1 // Object.is equality", "src/ledger/rounding.test.ts:42:18"],
    lookup: { mode: "grep", pattern: "Error|❯" },
  },
  {
    question: "After fixing half-even rounding, which tests fail?",
    calls: [fix("half-even rounding"), run()],
    answer: [failing("src/ledger/rounding.test.ts > keeps negative zero")],
    lookup: { mode: "grep", pattern: "×" },
  },
  {
    question: "After fixing negative zero, does the ledger area pass?",
    calls: [fix("negative zero"), run("ledger")],
    answer: ["Tests  82 passed (82)"],
    lookup: { mode: "grep", pattern: "Tests " },
  },
  {
    question: "Which JSON-RPC code does the SDK use for a timed-out request (for the retry's error message)?",
    calls: [read("types.js")],
    answer: ['ErrorCode[ErrorCode["RequestTimeout"] = -32001] = "RequestTimeout";'],
    lookup: { mode: "grep", pattern: "RequestTimeout" },
  },
  {
    question: "Does request() clean up its timeout when the send fails, so a retried send is not timed twice?",
    calls: [read("shared/protocol.js")],
    answer: [
      "this._transport.send(jsonrpcRequest, { relatedRequestId, resumptionToken, onresumptiontoken }).catch(error => {",
      "this._cleanupTimeout(messageId);",
    ],
    lookup: { mode: "chain", pattern: "_transport.send\\(jsonrpcRequest", context: 3 },
  },
  {
    question: "Which example clients should show the option?",
    calls: [{ tool: "search_files", args: { path: worldPath(WORK, "sdk", "examples", "client"), pattern: "*.js" } }],
    answer: [at("examples/client/streamableHttpWithSseFallbackClient.js")],
  },
  {
    question: "How does the SSE-fallback example build its transport?",
    calls: [read("examples/client/streamableHttpWithSseFallbackClient.js")],
    answer: ["const streamableTransport = new StreamableHTTPClientTransport(baseUrl);"],
    lookup: { mode: "grep", pattern: "new StreamableHTTPClientTransport" },
  },
  {
    question: "Where does the README list the example clients?",
    calls: [{ tool: "read_text_file", args: { path: worldPath(WORK, "README.md") } }],
    answer: ["Streamable HTTP client with SSE fallback ([`streamableHttpWithSseFallbackClient.ts`]"],
    lookup: { mode: "grep", pattern: "SSE fallback" },
  },
  {
    question: "Review the transport once more: does send() still throw for every other status?",
    calls: [read(JS)],
    answer: [POST_RETRY, POST_THROW],
    lookup: { mode: "chain", pattern: "response.status === 503", context: 5 },
  },
  {
    question: "What does the option's doc comment say, for the changelog?",
    calls: [read(DTS)],
    answer: [OPTION_DOC],
    lookup: { mode: "grep", pattern: "503" },
  },
  {
    question: "Write the changelog entry; was it written?",
    calls: [
      {
        tool: "write_file",
        args: {
          path: worldPath(WORK, "CHANGELOG-next.md"),
          content: `## Next\n\n- StreamableHTTPClientTransport: \`retryOn503\` (default true). ${OPTION_DOC} The GET that opens the SSE stream retries the same way.\n`,
        },
      },
    ],
    answer: [`Successfully wrote to ${worldPath(WORK, "CHANGELOG-next.md")}`],
  },
  {
    question: "One more full run before committing: any failure?",
    calls: [run()],
    answer: ["Tests  244 passed (244)"],
    lookup: { mode: "grep", pattern: "Tests |×" },
  },
  {
    question: "How long did that run take?",
    calls: [run()],
    answer: lineOf("Duration"),
    lookup: { mode: "grep", pattern: "Duration" },
  },
  {
    question: "How large is the transport file now?",
    calls: [{ tool: "get_file_info", args: { path: at(JS) } }],
    answer: (raw) => [/size: \d+/.exec(raw)![0]],
  },
  {
    question: "Last check of the api area after the rebase: does it pass?",
    calls: [run("api")],
    answer: ["Tests  81 passed (81)"],
    lookup: { mode: "grep", pattern: "Tests " },
  },
];

export const featureWork: Session = {
  name: WORK,
  description: "filesystem over the MCP SDK's dist/esm + the fixture's test runner: implement retry-on-503 in a long session",
  async setup() {
    const sdk = packageDir("@modelcontextprotocol/sdk");
    const dir = freshDir(WORK, { sdk: join(sdk, "dist/esm"), "README.md": join(sdk, "README.md") });
    return { servers: { fs: upstream.filesystem(dir.path), fx: upstream.fixture() }, cleanup: dir.cleanup };
  },
  turns,
};
