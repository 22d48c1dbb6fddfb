/** `spillway serve`: the local endpoint (MCP over Streamable HTTP and the hooks) until SIGINT or SIGTERM. */
import { createEngine } from "../../engine/engine";
import { describeError, ErrorCode, SpillwayError } from "../../errors";
import { isDamagedIndex } from "../../store/rebuildIndex";
import { startEndpoint } from "../../endpoint/endpoint";
import { stderrLogger } from "../../runtime";
import { parsePort, type Command } from "../command";
import { resolveConfig } from "../../home/home";
import { resolveHome } from "../../home/paths";
import { watchConfigFile } from "../configWatch";

export const serveCommand: Command = {
  usage: "[--port N]",
  summary: "Serve MCP at http://127.0.0.1:7341/mcp and the agent hooks, until stopped.",
  options: { port: { type: "string" } },
  async run(ctx) {
    const home = resolveHome({ home: ctx.values.home as string | undefined });
    const { config, path: configPath } = resolveConfig(home, { config: ctx.values.config as string | undefined });
    const port = parsePort(ctx.values.port) ?? config.server.port;
    const engine = createEngine({ home, config, logger: stderrLogger("info"), sweepTimer: true });
    let running;
    try {
      running = await startEndpoint({ engine, home, port });
    } catch (err) {
      await engine.close();
      if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
        throw new SpillwayError(
          ErrorCode.BadArgument,
          `port ${port} is already in use (another spillway serve?): stop it or pick another with --port.`,
        );
      }
      throw err;
    }
    // The inspector's code loads after /mcp and the hooks are listening. It reads the index at once:
    // a damaged one fails here, and then nothing may keep the port and the store (doctor --repair
    // refuses while another process holds the store).
    let inspector;
    try {
      const { mountInspector } = await import("../../inspector/web/webRoutes");
      inspector = mountInspector(running, { engine, home, configPath });
    } catch (err) {
      await running.close();
      await engine.close();
      if (isDamagedIndex(err))
        throw new SpillwayError(
          ErrorCode.Internal,
          `the index in ${home} is damaged (${describeError(err)}): run spillway doctor --repair to rebuild it from the stored files.`,
        );
      throw err;
    }
    const servers = Object.entries(config.mcpServers).map(([name, c]) => (c.disabled ? `${name} (disabled)` : name));
    ctx.io.out(
      [
        `Spillway is serving ${running.mcpUrl}`,
        `  hooks:    ${running.url}/hooks/claude-code, /hooks/transform, /hooks/expand, /hooks/compaction`,
        `  token:    ${running.tokenFile} (send it as Authorization: Bearer <token>)`,
        `  upstream: ${servers.length ? servers.join(", ") : "none configured (add mcpServers to " + home + "/config.json)"}`,
        `  inspector: ${inspector.loginUrl()} (one-time login link)`,
        "Press Ctrl+C to stop.",
      ].join("\n"),
    );
    const unwatch = watchConfigFile(configPath, (line) => ctx.io.err(line));
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    // A second Ctrl+C ends the process at once (the handlers are gone): what it leaves is picked up
    // by the next engine to open the store (indexing, token counts), so say so instead of hanging.
    const tasks = engine.backgroundTasks();
    ctx.io.err(
      tasks > 0
        ? `spillway serve: stopping after ${tasks} background task${tasks === 1 ? "" : "s"} (search indexing, token counts); press Ctrl+C again to stop now: the next start indexes and counts what is left`
        : "spillway serve: stopping",
    );
    unwatch();
    await running.close();
    await engine.close();
    return 0;
  },
};
