/** `spillway connect <agent>`: prints the config snippet that points an agent at Spillway. */
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tokenPath } from "../../http/token";
import type { CliIo, Command } from "../command";
import { AGENTS, findAgent, type Agent, type ConnectContext } from "../../connect/agents";
import { applyWrite, type HostEnv } from "../../connect/write";
import { resolveConfig, resolveHome } from "../../home/home";

/** The package is not published: configs start the CLI by its absolute path under node. */
const BIN = fileURLToPath(new URL("../../../bin/spillway.js", import.meta.url));
const HERMES_PLUGIN = fileURLToPath(new URL("../../../integrations/hermes", import.meta.url));

export function connectContext(home: string, port: number): ConnectContext {
  const args = [BIN, "mcp"];
  // A non-default home has to reach the agent-spawned process too.
  if (home !== join(homedir(), ".spillway")) args.push("--home", home);
  return { command: "node", args, baseUrl: `http://127.0.0.1:${port}`, home, tokenFile: tokenPath(home), hermesPlugin: HERMES_PLUGIN };
}

export const connectCommand: Command = {
  usage: "<agent> [--write] | --list [--port N]",
  summary: "Print the config that connects an agent (claude-code, codex, cursor, gemini-cli, opencode, hermes, cline, windsurf); --write merges it into the agent's config file, with a backup.",
  options: { list: { type: "boolean" }, port: { type: "string" }, write: { type: "boolean" } },
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
    const { config } = resolveConfig(home, { config: ctx.values.config as string | undefined });
    const port = ctx.values.port ? Number(ctx.values.port) : config.server.port;
    const context = connectContext(home, port);
    if (ctx.values.write) return writeConfig(agent, context, ctx.io);
    ctx.io.out(agent.snippet(context));
    return 0;
  },
};

/** `--write`: merges the snippet into the agent's own config file; an error is one line, the file untouched. */
function writeConfig(agent: Agent, context: ConnectContext, io: CliIo): number {
  if (!agent.writeTarget) {
    io.err(`spillway connect: --write is not available for ${agent.name}; paste what \`spillway connect ${agent.name}\` prints.`);
    return 2;
  }
  const host: HostEnv = { homeDir: homedir(), env: process.env };
  const target = agent.writeTarget(context, host);
  const result = applyWrite(target);
  if (!result.changed) io.out(`${result.file} already has Spillway's entry; nothing written.`);
  else io.out(`Wrote Spillway's entry into ${result.file}${result.backup ? ` (the previous file is kept as ${result.backup})` : ""}.`);
  io.out(`Check with: ${target.check}`);
  return 0;
}
