/**
 * `spillway mcp`: MCP over stdio for agents that spawn their servers. Only the protocol goes to
 * stdout; logs go to stderr. One process is one Spillway session.
 *
 * Agents list tools once, right after starting their servers, so initialize is answered before
 * this loads at all (cli/early.ts; the transport takes stdin over from it) and tools/list from
 * the catalog cached in the store; the engine (store, rescue, fetch, search) loads with the first
 * request that needs it.
 */
import { randomUUID } from "node:crypto";
import type { Engine } from "../../engine/engineApi";
import type { DeferredEngine } from "../../mcp/engineSource";
import { serveStdio } from "../../mcp/stdioMcp";
import { createUpstreamManager } from "../../mcp/upstreamManager";
import { stderrLogger } from "../../runtime";
import { lazyMaskingLogger } from "../../sensitivity/maskJson";
import type { StartupIndex } from "../../store/startupIndex";
import type { Command } from "../command";
import { resolveConfig } from "../../home/home";
import { resolveHome } from "../../home/paths";

/**
 * The session id: explicit, else the host's own id when it passes one (Claude Code gives its stdio
 * servers CLAUDE_CODE_SESSION_ID, the id its hooks carry, so handles from hooks and from this
 * server belong to one session), else a fresh one.
 */
export function stdioSessionId(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return flag || env.SPILLWAY_SESSION_ID || env.CLAUDE_CODE_SESSION_ID || randomUUID();
}

export const mcpCommand: Command = {
  usage: "[--session ID]",
  summary: "Serve MCP over stdio (what an agent's MCP config runs).",
  options: { session: { type: "string" } },
  async run(ctx) {
    const home = resolveHome({ home: ctx.values.home as string | undefined });
    const { config } = resolveConfig(home, { config: ctx.values.config as string | undefined });
    // Upstream errors carry their stderr, which can hold a secret; the host keeps this process's stderr.
    const logger = lazyMaskingLogger(stderrLogger("warn"), () =>
      import("../../sensitivity/secrets").then((m) => (t: string) => m.maskSecrets(t).text),
    );
    // Both open on first use; what opened is closed at the end.
    const opened: { index: Promise<StartupIndex> | null; engine: Promise<Engine> | null } = { index: null, engine: null };
    const startupIndex = () => (opened.index ??= import("../../store/startupIndex").then((m) => m.openStartupIndex(home)));
    const deferred: DeferredEngine = {
      config,
      logger,
      touchSession: (id, client, tools) => {
        startupIndex()
          .then((i) => i.touchSession(id, client, tools))
          .catch((err) => logger.warn("could not record the session", { session: id, error: String(err) }));
      },
      load: () => (opened.engine ??= import("../../engine/engine").then((m) => m.createEngine({ home, config, logger, sweepTimer: true }))),
    };
    // One process, one client: its upstreams declare only what that client can answer.
    const upstreams = createUpstreamManager(config, logger, async () => (await startupIndex()).catalog, true);
    // A host that stops its servers with a signal gets the same orderly close as one that closes
    // stdin: the upstreams (some perhaps still starting) are stopped rather than left running.
    const stop = () => process.stdin.destroy();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    try {
      await serveStdio({
        engine: deferred,
        upstreams,
        sessionId: stdioSessionId(ctx.values.session as string | undefined),
        prelude: ctx.stdinPrelude,
      });
    } finally {
      // The handlers stay until the upstreams are stopped: a signal during that wait must not end
      // the process before its children.
      await upstreams.close();
      await (await opened.engine?.catch(() => null))?.close();
      (await opened.index?.catch(() => null))?.close();
      await logger.flushed();
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
    }
    return 0;
  },
};
