/** The shape of a CLI command. */
import type { ParseArgsConfig } from "node:util";
import { createEngine } from "../engine/engine";
import { ErrorCode, SpillwayError } from "../errors";
import type { Engine } from "../engine/engineApi";
import type { StdinPrelude } from "../mcp/earlyStdio";
import { resolveConfig } from "../home/home";
import { resolveHome } from "../home/paths";
import { stderrLogger } from "../runtime";

export interface CliIo {
  out(s: string): void;
  err(s: string): void;
}

export interface CommandContext {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  io: CliIo;
  /** The early stdin reader bin/spillway.js started for `spillway mcp` (cli/early.ts), to take over. */
  stdinPrelude?: StdinPrelude;
}

export interface Command {
  usage: string;
  summary: string;
  options?: ParseArgsConfig["options"];
  run(ctx: CommandContext): Promise<number>;
}

/** Opens the engine for a one-shot command and closes it afterwards. */
export async function withEngine<T>(ctx: CommandContext, fn: (engine: Engine) => Promise<T> | T): Promise<T> {
  const home = resolveHome({ home: ctx.values.home as string | undefined });
  const { config } = resolveConfig(home, { config: ctx.values.config as string | undefined });
  const engine = createEngine({ home, config, logger: stderrLogger("warn") });
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

/** `--port N` as a number; `min` is 1 where port 0 (any free port) makes no sense, as in a printed URL. */
export function parsePort(v: string | boolean | undefined, min = 0): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== "string" || v.trim() === "" || !Number.isInteger(n) || n < min || n > 65_535)
    throw new SpillwayError(ErrorCode.BadArgument, `--port must be a port number (${min} to 65535), not "${String(v)}".`);
  return n;
}
