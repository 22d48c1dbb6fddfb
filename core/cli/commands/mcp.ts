/**
 * `spillway mcp`: MCP over stdio for agents that spawn their servers. Only the protocol goes to
 * stdout; logs go to stderr. One process is one Spillway session.
 */
import { randomUUID } from "node:crypto";
import { createEngine } from "../../engine/engine";
import { createUpstreams } from "../../endpoint/endpoint";
import { serveStdio } from "../../mcp/stdioMcp";
import { stderrLogger } from "../../runtime";
import type { Command } from "../command";
import { resolveConfig, resolveHome } from "../../home/home";

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
    const engine = createEngine({ home, config, logger: stderrLogger("warn"), sweepTimer: true });
    const upstreams = createUpstreams(engine);
    try {
      await serveStdio({ engine, upstreams, sessionId: stdioSessionId(ctx.values.session as string | undefined) });
    } finally {
      await upstreams.close();
      await engine.close();
    }
    return 0;
  },
};
