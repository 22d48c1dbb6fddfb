/** Spillway's own model-facing tools, rescuer_fetch and recall_result: schemas, descriptions, handlers. */
import { z } from "zod";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { fetchToolShape, FETCH_ARG_NAMES } from "../fetch/fetchArgs";
import { OWN_TOOLS } from "../vocabulary";
import type { Engine } from "../engine/engineApi";

export const FETCH_TOOL = OWN_TOOLS.fetch;
export const RECALL_TOOL = OWN_TOOLS.recall;

const fetchShape = fetchToolShape();

const recallShape = z.object({ result_id: z.string() });

/*
 * These definitions ride along on every request a host sends, so they are kept to a few
 * words: what each mode does, with an example, is in the handle the model is reading when it
 * needs this tool (rescue/handle.ts), and the argument names say the rest.
 */
const FETCH_DESCRIPTION = "Read a result Spillway stored in place of a preview; its handle lists the modes with examples.";
const RECALL_DESCRIPTION = "Exact text of an earlier result that a Spillway stub replaced.";

/** Keys of an advertised property kept: bounds and lengths are left to the validator's sentences. */
const KEPT_KEYS = new Set(["type", "enum", "description"]);

function inputSchema(schema: z.ZodObject): Tool["inputSchema"] {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [name, prop] of Object.entries((json.properties ?? {}) as Record<string, Record<string, unknown>>)) {
    properties[name] = Object.fromEntries(Object.entries(prop).filter(([k]) => KEPT_KEYS.has(k)));
  }
  return { type: "object", properties, required: json.required as string[] };
}

const ANNOTATIONS = { readOnlyHint: true };

/** The tool definitions as tools/list advertises them. */
export function ownToolDefinitions(): Tool[] {
  return [
    { name: FETCH_TOOL, description: FETCH_DESCRIPTION, inputSchema: inputSchema(fetchShape), annotations: ANNOTATIONS },
    { name: RECALL_TOOL, description: RECALL_DESCRIPTION, inputSchema: inputSchema(recallShape), annotations: ANNOTATIONS },
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
export function callOwnTool(
  engine: Engine,
  sessionId: string,
  name: string,
  rawArgs: unknown,
  onEvent?: (eventId: number | undefined) => void,
): CallToolResult {
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
