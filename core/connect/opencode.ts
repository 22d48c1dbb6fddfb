/**
 * OpenCode (checked with 1.18.33): a flat `mcp.spillway` entry of type "local" in the global
 * `~/.config/opencode/opencode.json` (or .jsonc, or config.json: OpenCode reads and merges every one
 * of them; `$XDG_CONFIG_HOME` moves them) or a project's opencode.json. There is no `mcp.servers` level.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent, ConnectContext } from "./agents";
import { json, shellArgs, upstreamsNote } from "./common";
import { removeJsonEntry, setJsonEntry } from "./jsonEntry";
import type { HostEnv } from "./write";

const NAMES = ["opencode.json", "opencode.jsonc", "config.json"];
const SCHEMA = "https://opencode.ai/config.json";

/**
 * No `timeout`: in 1.18.33 a tools/list answered after about 9 s and a 16 s tool call both went through
 * without one, so the entry stays as small as what `opencode mcp add` writes, plus `enabled`.
 */
export function opencodeEntry(c: ConnectContext): { type: "local"; command: string[]; enabled: true } {
  return { type: "local", command: [c.command, ...c.args], enabled: true };
}

const PATH = ["mcp", "spillway"];

const configDir = (host: HostEnv) => join(host.env.XDG_CONFIG_HOME || join(host.homeDir, ".config"), "opencode");

/** The global config files OpenCode reads (and merges) that exist, in the order Spillway prefers them. */
export function opencodeConfigFiles(host: HostEnv): string[] {
  return NAMES.map((n) => join(configDir(host), n)).filter((f) => existsSync(f));
}

/** Whether `file` holds an `mcp.spillway` entry (a file that does not parse holds none we can see). */
function holdsEntry(file: string): boolean {
  try {
    const doc = readFileSync(file, "utf8");
    return removeJsonEntry(doc, PATH, file) !== doc;
  } catch {
    return false;
  }
}

/**
 * The global config file `--write` merges into: the one that already holds Spillway's entry, else
 * the first of OpenCode's names that exists, else opencode.json.
 */
export function opencodeConfigFile(host: HostEnv): string {
  const files = opencodeConfigFiles(host);
  return files.find(holdsEntry) ?? files[0] ?? join(configDir(host), NAMES[0]!);
}

export const opencodeAgent: Agent = {
  name: "opencode",
  title: "OpenCode (~/.config/opencode/opencode.json)",
  snippet: (c) =>
    [
      "# OpenCode 1.18: merge into ~/.config/opencode/opencode.json (global) or a project's opencode.json,",
      "# or run `spillway connect opencode --write` (global file; the old one is kept as <file>.bak-<time>).",
      '# The entry sits directly under "mcp" (no "servers" level):',
      json({ $schema: SCHEMA, mcp: { spillway: opencodeEntry(c) } }),
      `# Or: opencode mcp add spillway -- ${shellArgs(c)}   (the same entry without "enabled"; with no config yet it creates opencode.jsonc)`,
      "# Check with `opencode mcp list`. The model sees the tools as spillway_<tool>.",
      `# ${upstreamsNote(c)}`,
    ].join("\n"),
  writeTarget: (c, host) => {
    const file = opencodeConfigFile(host);
    const all = opencodeConfigFiles(host);
    return {
      file,
      // OpenCode merges all of them: an entry left in any one still starts Spillway.
      removeFrom: all.length ? all : [file],
      merge: (current) => setJsonEntry(current ?? JSON.stringify({ $schema: SCHEMA }, null, 2) + "\n", PATH, opencodeEntry(c), file),
      remove: (current, from) => removeJsonEntry(current, PATH, from),
      check: "opencode mcp list",
    };
  },
};
