/** `spillway connect <agent>`: prints the config snippet that points an agent at Spillway. */
import type { Command } from "../command";
import { AGENTS, findAgent } from "../../connect/agents";
import { connectContext } from "../../connect/context";
import { resolveConfig, resolveHome } from "../../home/home";

export const connectCommand: Command = {
  usage: "<agent> | --list [--port N]",
  summary: "Print the config that connects an agent (claude-code, codex, cursor, gemini-cli, opencode, hermes, cline, windsurf).",
  options: { list: { type: "boolean" }, port: { type: "string" } },
  async run(ctx) {
    const [name] = ctx.positionals;
    if (ctx.values.list || !name) {
      ctx.io.out(AGENTS.map((a) => `${a.name.padEnd(12)} ${a.title}`).join("\n"));
      return ctx.values.list ? 0 : 2;
    }
    const agent = findAgent(name);
    if (!agent) {
      ctx.io.err(`spillway connect: unknown agent "${name}". Known: ${AGENTS.map((a) => a.name).join(", ")}.`);
      return 2;
    }
    const home = resolveHome({ home: ctx.values.home as string | undefined });
    const { config, path } = resolveConfig(home, { config: ctx.values.config as string | undefined });
    const port = ctx.values.port ? Number(ctx.values.port) : config.server.port;
    ctx.io.out(agent.snippet(connectContext(home, port, path)));
    return 0;
  },
};
