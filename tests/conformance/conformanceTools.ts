/** The tools the conformance suite's server scenarios call, as conformanceServer.ts lists them. */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

const none = { type: "object" as const, properties: {} };
const str = (description: string) => ({ type: "string", description });

/** The elicitation tools carry the schema they ask the client to fill in `_meta.requestedSchema`. */
export const tools: Tool[] = [
  { name: "test_simple_text", description: "Returns simple text", inputSchema: none },
  { name: "test_image_content", description: "Returns an image", inputSchema: none },
  { name: "test_audio_content", description: "Returns audio", inputSchema: none },
  { name: "test_embedded_resource", description: "Returns an embedded resource", inputSchema: none },
  { name: "test_multiple_content_types", description: "Returns text, image and resource", inputSchema: none },
  { name: "test_tool_with_logging", description: "Logs three messages while running", inputSchema: none },
  { name: "test_error_handling", description: "Always fails", inputSchema: none },
  { name: "test_tool_with_progress", description: "Reports progress", inputSchema: none },
  {
    name: "test_sampling",
    description: "Asks the client's LLM",
    inputSchema: { type: "object", properties: { prompt: str("The prompt") }, required: ["prompt"] },
  },
  {
    name: "test_elicitation",
    description: "Asks the user",
    inputSchema: { type: "object", properties: { message: str("The message") }, required: ["message"] },
    _meta: {
      requestedSchema: {
        type: "object",
        properties: { username: str("User's response"), email: str("User's email address") },
        required: ["username", "email"],
      },
    },
  },
  {
    name: "test_elicitation_sep1034_defaults",
    description: "Asks the user with defaults",
    inputSchema: none,
    _meta: {
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", description: "Verification status", default: true },
        },
      },
    },
  },
  {
    name: "test_elicitation_sep1330_enums",
    description: "Asks the user with every enum form",
    inputSchema: none,
    _meta: {
      requestedSchema: {
        type: "object",
        properties: {
          untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            oneOf: [
              { const: "value1", title: "First" },
              { const: "value2", title: "Second" },
            ],
          },
          legacyEnum: { type: "string", enum: ["opt1", "opt2"], enumNames: ["Option one", "Option two"] },
          untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
          titledMulti: {
            type: "array",
            items: {
              anyOf: [
                { const: "value1", title: "First" },
                { const: "value2", title: "Second" },
              ],
            },
          },
        },
      },
    },
  },
  {
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
      properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    },
  },
  { name: "test_reconnection", description: "Closes its SSE stream mid-call", inputSchema: none },
];
