/** Spillway's own model-facing tools, rescuer_fetch and recall_result: schemas, descriptions, handlers. */
import { z } from "zod";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { fetchToolShape, FETCH_ARG_NAMES } from "../fetch/fetchArgs";
import { OWN_TOOLS } from "../vocabulary";
import type { Engine } from "../engine/engineApi";

export const FETCH_TOOL = OWN_TOOLS.fetch;
export const RECALL_TOOL = OWN_TOOLS.recall;

const fetchShape = fetchToolShape();

const recallShape = z.object({
  result_id: z.string().describe("The 12-character id named in the stub."),
});


function fetchDescription(maxChars: number, fullMaxChars: number): string {
  return [
    "Read a large tool result that Spillway stored instead of putting it in your context.",
    "When a result is too large you get a preview (NOT the full output) with a 12-character id; this tool reads the full stored text by that id.",
    "Modes:",
    "- stat: size, lines, kind, source tool and expiry.",
    "- outline: the structure (JSON shape with per-field types and min/max/mean, CSV columns, heading tree, log error/warning clusters with first line numbers).",
    "- search (query, top_k): the chunks that best answer a plain-language question, with 0-based line spans.",
    "- grep (pattern, ignore_case): matching lines with 0-based line numbers; RE2 syntax.",
    "- chain (pattern, context): matches with surrounding lines, overlapping windows merged.",
    "- range (start, count | start_char, count_chars): exact lines (0-based) or a character span.",
    "- query (expression): a JMESPath query over a JSON result.",
    `- full: the whole text, only when it is under ${fullMaxChars.toLocaleString("en-US")} characters.`,
    `Answers are capped at about ${maxChars.toLocaleString("en-US")} characters and say when they were cut and how to continue.`,
    'Start with outline or search, then grep or range for details. Example: rescuer_fetch(id="3f9a0c1d2e4b", mode="grep", pattern="error|failed").',
    "To hand the whole result to another tool without reading it, write spill:<id> in that tool's argument.",
  ].join("\n");
}

const RECALL_DESCRIPTION = [
  "Get back the exact text of an earlier tool result that Spillway replaced by a one-line stub because you had already received it.",
  "Use it when that earlier result is no longer in your context (for example after a summary). result_id is the id named in the stub.",
  "Very large results answer as rescuer_fetch mode full does; use rescuer_fetch for parts of them.",
].join("\n");

function inputSchema(schema: z.ZodObject): Tool["inputSchema"] {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  // zod bounds every int by the safe-integer range; that is noise in a schema a model reads.
  for (const prop of Object.values((json.properties ?? {}) as Record<string, Record<string, unknown>>)) {
    if (prop.maximum === Number.MAX_SAFE_INTEGER) delete prop.maximum;
    if (prop.minimum === Number.MIN_SAFE_INTEGER) delete prop.minimum;
  }
  return json as Tool["inputSchema"];
}

/** The tool definitions as tools/list advertises them. */
export function ownToolDefinitions(engine: Engine): Tool[] {
  const { maxChars, fullMaxChars } = engine.config.fetch;
  return [
    {
      name: FETCH_TOOL,
      title: "Read a stored tool result",
      description: fetchDescription(maxChars, fullMaxChars),
      inputSchema: inputSchema(fetchShape),
      annotations: { title: "Read a stored tool result", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: RECALL_TOOL,
      title: "Recall an earlier tool result",
      description: RECALL_DESCRIPTION,
      inputSchema: inputSchema(recallShape),
      annotations: { title: "Recall an earlier tool result", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
  ];
}

export function isOwnTool(name: string): boolean {
  return name === FETCH_TOOL || name === RECALL_TOOL;
}

function asRecord(args: unknown): Record<string, unknown> {
  return args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

/**
 * Runs one of the own tools for a session. Argument values are handed to the engine as given:
 * it accepts the loose forms models write ("5" for 5) and answers a bad one with a sentence.
 */
export function callOwnTool(engine: Engine, sessionId: string, name: string, rawArgs: unknown, onEvent?: (eventId: number | undefined) => void): CallToolResult {
  const args = asRecord(rawArgs);
  const answer =
    name === FETCH_TOOL
      ? engine.fetch({
          sessionId,
          id: args.id,
          mode: args.mode,
          args: Object.fromEntries(FETCH_ARG_NAMES.filter((k) => args[k] !== undefined).map((k) => [k, args[k]])),
        })
      : engine.recall(sessionId, args.result_id ?? args.id);
  onEvent?.(answer.eventId);
  return { content: [{ type: "text", text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
}
