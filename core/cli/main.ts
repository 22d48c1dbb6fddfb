/** The `spillway` CLI: one clear line and a non-zero exit on any error, never a stack trace. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { describeError, SpillwayError } from "../errors";
import type { CliIo, Command, CommandContext } from "./command";

/** Commands load on demand, so `spillway mcp` (spawned by agents) pays only for what it uses. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  status: async () => (await import("./commands/status")).statusCommand,
  sweep: async () => (await import("./commands/sweep")).sweepCommand,
  fetch: async () => (await import("./commands/fetch")).fetchCommand,
  search: async () => (await import("./commands/search")).searchCommand,
  key: async () => (await import("./commands/key")).keyCommand,
  serve: async () => (await import("./commands/serve")).serveCommand,
  mcp: async () => (await import("./commands/mcp")).mcpCommand,
  doctor: async () => (await import("./commands/doctor")).doctorCommand,
  connect: async () => (await import("./commands/connect")).connectCommand,
  import: async () => (await import("./commands/import")).importCommand,
  replay: async () => (await import("./commands/replay")).replayCommand,
};

const COMMON: ParseArgsConfig["options"] = {
  home: { type: "string" },
  config: { type: "string" },
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
};

async function usage(): Promise<string> {
  const lines: string[] = [];
  for (const [name, load] of Object.entries(COMMANDS)) {
    const c = await load();
    lines.push(`  ${(name + " " + c.usage).padEnd(44)} ${c.summary}`);
  }
  return ["usage: spillway <command> [options]", "", "commands:", ...lines, "", "options: --home DIR  --config FILE  --json  --help"].join(
    "\n",
  );
}

/** parseArgs's complaint in one sentence (its "ambiguous" one means a value that starts with "-"). */
function argsError(err: unknown): string {
  // Its advice on positionals that start with "-" is for scripts, not for a mistyped option.
  const text = describeError(err)
    .replace(/\. To specify a positional argument[\s\S]*$/, "")
    .replace(/\.+$/, "");
  const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(text);
  return ambiguous
    ? `${ambiguous[1]} was given a value starting with "-"; write it as ${ambiguous[1]}=<value> if that is what you meant`
    : text;
}

let pipeWatched = false;
/** Output piped into a reader that stops early (`spillway doctor | head -1`): end quietly, as Unix tools do. */
function watchPipe(): void {
  if (pipeWatched) return;
  pipeWatched = true;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const stdio: CliIo = {
  out: (s) => {
    watchPipe();
    process.stdout.write(s.endsWith("\n") ? s : s + "\n");
  },
  err: (s) => process.stderr.write(s.endsWith("\n") ? s : s + "\n"),
};

/**
 * `spillway --home DIR status` as `spillway status --home DIR`: the options every command takes
 * (`--help` lists them beside the commands) may come before the command's name too.
 */
export function commandFirst(argv: string[]): string[] {
  const before: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const a = argv[i]!;
    if (a === "--home" || a === "--config") {
      if (i + 1 >= argv.length) break;
      before.push(a, argv[i + 1]!);
      i += 2;
    } else if (a.startsWith("--home=") || a.startsWith("--config=") || a === "--json") {
      before.push(a);
      i++;
    } else break;
  }
  if (before.length === 0 || i >= argv.length) return argv;
  return [argv[i]!, ...before, ...argv.slice(i + 1)];
}

/** Runs one command; `extra` carries what bin/spillway.js started before the CLI loaded. */
export async function main(argv: string[], io: CliIo = stdio, extra: Pick<CommandContext, "stdinPrelude"> = {}): Promise<number> {
  const [name, ...rest] = commandFirst(argv);
  if (!name || name === "help" || name === "--help" || name === "-h") {
    io.out(await usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "version") {
    io.out(`spillway ${(await import("../mcp/version")).SPILLWAY_VERSION}`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.err(`spillway: unknown command "${name}". Run "spillway --help" for the list.`);
    return 2;
  }
  const cmd = await load();
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: { ...COMMON, ...cmd.options }, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`spillway ${name}: ${argsError(err)}. Usage: spillway ${name} ${cmd.usage}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(`usage: spillway ${name} ${cmd.usage}\n${cmd.summary}`);
    return 0;
  }
  try {
    return await cmd.run({
      values: parsed.values as Record<string, string | boolean | undefined>,
      positionals: parsed.positionals,
      io,
      ...extra,
    });
  } catch (err) {
    const msg = err instanceof SpillwayError ? err.message : describeError(err);
    // Loaded only here: `spillway mcp` starts without the store's modules.
    const damaged = name !== "doctor" && (await import("../store/rebuildIndex")).isDamagedIndex(err);
    const fix = damaged ? " (the index is damaged: run spillway doctor --repair)" : "";
    io.err(`spillway ${name}: ${msg}${fix}`);
    return 1;
  }
}
