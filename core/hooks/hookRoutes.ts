/** Mounts the hook endpoints on the HTTP server. Every handler fails open: an error answers "no change" and is logged. */
import type { z } from "zod";
import { describeError, ErrorCode, SpillwayError } from "../errors";
import { DEFAULT_MAX_BODY_BYTES, type HttpEndpoint } from "../http/server";
import { readJson, sendError, sendJson, sendOk } from "../http/respond";
import type { Engine } from "../engine/engineApi";
import { handleClaudeCodeHook } from "./claudeCode";
import type { ToolUseSessions } from "./toolUseSessions";
import { PreToolUses } from "./preToolUses";
import * as api from "./genericApi";

/** The answer when something failed: what each route returns for "leave it as it is". */
const NO_CHANGE: Record<string, unknown> = {
  "/hooks/transform": { changed: false, outcome: "failed_open", text: null, blob_id: null, resource_uri: null },
  "/hooks/expand": { changed: false, args: null, note: null, expansions: [] },
};

function describeIssue(err: z.ZodError): string {
  const i = err.issues[0]!;
  return `"${i.path.join(".") || "body"}": ${i.message}`;
}

/** `toolUses`: shared with the HTTP MCP sessions, so they can tell which Claude Code session calls them. */
export function mountHooks(endpoint: HttpEndpoint, engine: Engine, toolUses?: ToolUseSessions): void {
  const log = engine.logger;
  const preToolUses = new PreToolUses();
  const unreached = new Set<string>();

  // The body is parsed here, not by the router: Claude Code gets `{}` (carry on) even for a body it
  // should never send, rather than an error status.
  endpoint.addRoute(
    "POST",
    "/hooks/claude-code",
    async (req, res) => {
      let answer: Record<string, unknown> = {};
      let body: unknown;
      try {
        body = await readJson(req, DEFAULT_MAX_BODY_BYTES);
      } catch (err) {
        if (err instanceof SpillwayError && err.code === ErrorCode.TooLarge) throw err;
        log.warn("claude-code hook body is not JSON; answering no change");
      }
      try {
        if (body && typeof body === "object" && !Array.isArray(body)) {
          // A tool's output is queued for indexing: under a backlog over its budget, take it once
          // the queue has caught up (as MCP requests are), so memory stays bounded under any load.
          if (String((body as Record<string, unknown>).hook_event_name).startsWith("PostToolUse")) await engine.backpressure();
          answer = await handleClaudeCodeHook(engine, body as Record<string, unknown>, { toolUses, preToolUses, unreached });
        }
      } catch (err) {
        log.error("claude-code hook failed; answering no change", {
          event: (body as Record<string, unknown>)?.hook_event_name,
          error: describeError(err),
        });
      }
      sendJson(res, 200, answer);
    },
    { json: false },
  );

  /** `intake`: the route takes a tool's output, so it waits for the background queue's backlog (see above). */
  const route = <S extends z.ZodType>(path: string, schema: S, run: (req: z.infer<S>) => unknown, intake = false) => {
    endpoint.addRoute("POST", path, async (_req, res, { body }) => {
      const parsed = schema.safeParse(body);
      if (!parsed.success) return sendError(res, ErrorCode.BadArgument, `${path}: ${describeIssue(parsed.error)}`);
      if (intake) await engine.backpressure();
      let value: unknown;
      try {
        value = run(parsed.data);
      } catch (err) {
        log.error("hook failed; answering no change", { path, error: describeError(err) });
        if (NO_CHANGE[path]) return sendOk(res, NO_CHANGE[path]);
        return sendError(res, ErrorCode.Internal, `${path} failed inside Spillway: ${describeError(err)}`);
      }
      sendOk(res, value);
    });
  };

  route("/hooks/transform", api.transformRequest, (r) => api.transform(engine, r), true);
  route("/hooks/expand", api.expandRequest, (r) => api.expand(engine, r));
  route("/hooks/compaction", api.sessionRequest, (r) => ({ generation: engine.compaction(r.session_id) }));
  route("/hooks/turn", api.sessionRequest, (r) => ({ turn: engine.turn(r.session_id) }));
  route("/hooks/fetch", api.fetchRequest, (r) => api.fetch(engine, r));
  route("/hooks/recall", api.recallRequest, (r) => api.recall(engine, r));
}
