/**
 * The generic JSON hook API for host plugins (the Hermes shim and others). Requests are validated
 * here once; answers use the endpoint's `{ ok, value | error }` envelope. See integrations/README.md.
 */
import { z } from "zod";
import type { Engine } from "../engine/engineApi";

const session = z.string().min(1).max(256);
const tool = z.string().min(1).max(256);
/** The host's name ("hermes"), recorded on the session for the inspector. */
const client = z.string().min(1).max(100).optional();
/** A tool's arguments: an object (or an array); null or absent when the host has none. */
const toolArgs = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullish();

export const transformRequest = z.object({
  session_id: session,
  tool,
  server: z.string().max(256).nullish(),
  args: toolArgs,
  text: z.string(),
  is_error: z.boolean().optional(),
  client,
});
export const expandRequest = z.object({ session_id: session, tool, server: z.string().max(256).nullish(), args: toolArgs, client });
export const sessionRequest = z.object({ session_id: session });
export const fetchRequest = z.looseObject({ session_id: session, id: z.string(), mode: z.string() });
export const recallRequest = z.object({ session_id: session, result_id: z.string() });

export function transform(engine: Engine, req: z.infer<typeof transformRequest>) {
  if (req.client) engine.touchSession(req.session_id, req.client);
  const r = engine.transformToolResult({
    sessionId: req.session_id,
    tool: req.tool,
    server: req.server ?? null,
    args: req.args,
    text: req.text,
    isError: req.is_error === true,
  });
  // A masked pass-through is a change too: the host must deliver the masked text, not its own copy.
  const changed = r.outcome === "rescued" || r.outcome === "stubbed" || r.masked === true;
  const answer = {
    changed,
    outcome: r.outcome,
    // The unchanged text is not echoed back: callers already have it, and it may be megabytes.
    text: changed ? r.text : null,
    blob_id: r.blobId,
    resource_uri: r.outcome === "rescued" && r.blobId ? `spillway://blob/${r.blobId}` : null,
  };
  // The call's raw record: the request the host sent and this answer (the engine masks and cuts both).
  if (r.callId !== null) engine.noteCall(r.callId, { rpc: { kind: "hook", request: req, response: answer } });
  return answer;
}

export function expand(engine: Engine, req: z.infer<typeof expandRequest>) {
  if (req.client) engine.touchSession(req.session_id, req.client);
  const r = engine.expandArguments({ sessionId: req.session_id, tool: req.tool, server: req.server ?? null, args: req.args });
  return {
    changed: r.changed,
    args: r.changed ? r.args : null,
    note: r.note,
    expansions: r.expansions.map((e) => ({ id: e.id, outcome: e.outcome, reason: e.reason ?? null, path: e.path })),
  };
}

export function fetch(engine: Engine, req: z.infer<typeof fetchRequest>) {
  const { session_id, id, mode, ...args } = req;
  const a = engine.fetch({ sessionId: session_id, id, mode, args });
  return { text: a.text, is_error: a.isError, truncated: a.truncated };
}

export function recall(engine: Engine, req: z.infer<typeof recallRequest>) {
  const a = engine.recall(req.session_id, req.result_id);
  return { text: a.text, is_error: a.isError, truncated: a.truncated };
}
