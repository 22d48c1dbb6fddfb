/** `spillway connect <agent>`: prints the config snippet that points an agent at Spillway. */
import { homedir } from "node:os";
import { parsePort, type CliIo, type Command } from "../command";
import { AGENTS, findAgent, type Agent, type ConnectContext } from "../../connect/agents";
import { connectContext } from "../../connect/context";
import { applyRemove, applyWrite, type HostEnv, type WriteResult } from "../../connect/write";
import { resolveConfig } from "../../home/home";
import { resolveHome } from "../../home/paths";

export const connectCommand: Command = {
  usage: "<agent> [--write | --remove] | --list [--port N]",
  summary:
    "Print the config that connects an agent (claude-code, codex, cursor, gemini-cli, opencode, hermes, cline, windsurf); --write merges it into the agent's config file, --remove takes Spillway's entry out again, each with a backup.",
  options: { list: { type: "boolean" }, port: { type: "string" }, write: { type: "boolean" }, remove: { type: "boolean" } },
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
    const port = parsePort(ctx.values.port, 1) ?? config.server.port;
    const context = connectContext(home, port, path);
    if (ctx.values.write && ctx.values.remove) {
      ctx.io.err("spillway connect: --write and --remove go one at a time.");
      return 2;
    }
    if (ctx.values.write) return writeConfig(agent, context, ctx.io);
    if (ctx.values.remove) return removeConfig(agent, context, ctx.io);
    // A JSON snippet's notes go to stderr, so `spillway connect cursor > mcp.json` is valid JSON.
    const lines = agent.snippet(context).split("\n");
    let body = lines.length;
    while (body > 0 && lines[body - 1]!.startsWith("// ")) body--;
    ctx.io.out(lines.slice(0, body).join("\n"));
    for (const note of lines.slice(body)) ctx.io.err(note.slice(3));
    return 0;
  },
};

/** The file a result names: a symbolic link's target, written through the link, and where the old file went. */
function written(r: WriteResult): string {
  const file = r.linkTarget ? `${r.linkTarget}, the file the link ${r.file} points to (the link is kept)` : r.file;
  return `${file}${r.backup ? `; the previous file is kept as ${r.backup}` : ""}`;
}

/** `--write`: merges the snippet into the agent's own config file; an error is one line, the file untouched. */
function writeConfig(agent: Agent, context: ConnectContext, io: CliIo): number {
  if (!agent.writeTarget) {
    io.err(`spillway connect: --write is not available for ${agent.name}; paste what \`spillway connect ${agent.name}\` prints.`);
    return 2;
  }
  const host: HostEnv = { homeDir: homedir(), env: process.env };
  const target = agent.writeTarget(context, host);
  const result = applyWrite(target, new Date(), `merge what \`spillway connect ${agent.name}\` prints by hand`);
  if (!result.changed) io.out(`${result.file} already has Spillway's entry; nothing written.`);
  else io.out(`Wrote Spillway's entry into ${written(result)}.`);
  io.out(`Check with: ${target.check}`);
  return 0;
}

/** How to undo what each agent without a `--write` target was told to paste. */
const REMOVE_BY_HAND: Record<string, string> = {
  "claude-code":
    "run `claude mcp remove spillway -s user` (or take spillway out of the project's .mcp.json) and delete the hooks that post to /hooks/claude-code from ~/.claude/settings.json",
  hermes: "run `hermes plugins disable spillway` and delete ~/.hermes/plugins/spillway",
};

/**
 * `--remove`: takes Spillway's entry out of the agent's config file (after a backup), so the agent
 * starts without it; Codex, told `required = true`, would otherwise refuse to start once Spillway is gone.
 */
function removeConfig(agent: Agent, context: ConnectContext, io: CliIo): number {
  if (!agent.writeTarget) {
    io.err(
      `spillway connect: --remove is not available for ${agent.name}; ${REMOVE_BY_HAND[agent.name] ?? "delete the entry you pasted"}.`,
    );
    return 2;
  }
  const target = agent.writeTarget(context, { homeDir: homedir(), env: process.env });
  const results = applyRemove(target, new Date());
  const changed = results.filter((r) => r.changed);
  if (changed.length === 0)
    io.out(`${results.map((r) => r.file).join(" and ")} ${results.length > 1 ? "have" : "has"} no Spillway entry; nothing written.`);
  for (const r of changed) io.out(`Removed Spillway's entry from ${written(r)}.`);
  io.out(`Check with: ${target.check}`);
  return 0;
}
