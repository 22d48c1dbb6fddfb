/** The `spillway` CLI: one clear line and a non-zero exit on any error, never a stack trace. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { describeError, SpillwayError } from "../errors";
import type { CliIo, Command } from "./command";
import { statusCommand } from "./commands/status";
import { sweepCommand } from "./commands/sweep";
import { fetchCommand } from "./commands/fetch";
import { keyCommand } from "./commands/key";
import { serveCommand } from "./commands/serve";
import { mcpCommand } from "./commands/mcp";
import { doctorCommand } from "./commands/doctor";
import { connectCommand } from "./commands/connect";

const COMMANDS: Record<string, Command> = {
  status: statusCommand,
  sweep: sweepCommand,
  fetch: fetchCommand,
  key: keyCommand,
  serve: serveCommand,
  mcp: mcpCommand,
  doctor: doctorCommand,
  connect: connectCommand,
};

/** Extra commands registered by other modules (the endpoints add serve, mcp, doctor, connect). */
export function registerCommand(name: string, cmd: Command): void {
  COMMANDS[name] = cmd;
}

const COMMON: ParseArgsConfig["options"] = {
  home: { type: "string" },
  config: { type: "string" },
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${(name + " " + c.usage).padEnd(44)} ${c.summary}`);
  return ["usage: spillway <command> [options]", "", "commands:", ...lines, "", "options: --home DIR  --config FILE  --json  --help"].join("\n");
}

const stdio: CliIo = {
  out: (s) => process.stdout.write(s.endsWith("\n") ? s : s + "\n"),
  err: (s) => process.stderr.write(s.endsWith("\n") ? s : s + "\n"),
};

export async function main(argv: string[], io: CliIo = stdio): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    io.out(usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "version") {
    io.out("spillway 0.1.0");
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    io.err(`spillway: unknown command "${name}". Run "spillway --help" for the list.`);
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: { ...COMMON, ...cmd.options }, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`spillway ${name}: ${describeError(err)}. Usage: spillway ${name} ${cmd.usage}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(`usage: spillway ${name} ${cmd.usage}\n${cmd.summary}`);
    return 0;
  }
  try {
    return await cmd.run({ values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals, io });
  } catch (err) {
    const msg = err instanceof SpillwayError ? err.message : describeError(err);
    io.err(`spillway ${name}: ${msg}`);
    return 1;
  }
}
