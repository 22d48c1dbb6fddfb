/** Pieces every agent snippet shares: the stdio entry, shell quoting, the note about upstreams. */
import type { ConnectContext } from "./agents";

export const json = (v: unknown): string => JSON.stringify(v, null, 2);

/** The command line that starts `spillway mcp`, quoted for a POSIX shell. */
export const shellArgs = (c: ConnectContext): string =>
  [c.command, ...c.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");

/** `{ command, args }`, the stdio server shape of most agents' JSON configs. */
export const stdioEntry = (c: ConnectContext): { command: string; args: string[] } => ({ command: c.command, args: c.args });

export const upstreamsNote = (c: ConnectContext): string =>
  `Move the MCP servers you want Spillway to guard from this agent's config into ${c.configFile ?? `${c.home}/config.json`} under "mcpServers", entries as they are (stdio, url or httpUrl, OpenCode's local and remote; not SSE-only servers); Spillway starts them and offers their tools.`;
