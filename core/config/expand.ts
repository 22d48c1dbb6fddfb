/**
 * `${VAR}`, `${VAR:-default}` (Claude Code's .mcp.json) and `${env:VAR}` (Cursor's mcp.json) in a
 * server entry, expanded from the environment when the server is started, as the agent that wrote
 * the entry would: the config file keeps the placeholder, so a token stays in the environment.
 */
import type { UpstreamConfig } from "./config";

const PLACEHOLDER = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class MissingVariable extends Error {
  constructor(readonly variable: string) {
    super(`the entry uses \${${variable}}, which is not set in Spillway's environment (and gives no default with \${${variable}:-…})`);
  }
}

/** `text` with its placeholders filled from `env`; throws MissingVariable for one unset without a default. */
export function expandVariables(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(PLACEHOLDER, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    if (value !== undefined) return value;
    throw new MissingVariable(name);
  });
}

/** Whether `text` holds a placeholder (a URL with one is checked once expanded). */
export function hasVariables(text: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  return PLACEHOLDER.test(text);
}

const map = (o: Record<string, string>, f: (s: string) => string) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

/** The entry with every string that reaches the server expanded (command, args, env, cwd; url, headers). */
export function expandEntry(c: UpstreamConfig, env: NodeJS.ProcessEnv): UpstreamConfig {
  const x = (s: string) => expandVariables(s, env);
  if ("url" in c) return { ...c, url: x(c.url), headers: map(c.headers, x) };
  return { ...c, command: x(c.command), args: c.args.map(x), env: map(c.env, x), ...(c.cwd !== undefined ? { cwd: x(c.cwd) } : {}) };
}
