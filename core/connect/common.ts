/** Pieces every agent snippet shares: the stdio entry, shell quoting, the note about upstreams. */
import type { ConnectContext } from "./agents";

export const json = (v: unknown): string => JSON.stringify(v, null, 2);

/** The command line that starts `spillway mcp`, quoted for a POSIX shell. */
export const shellArgs = (c: ConnectContext): string =>
  [c.command, ...c.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");

/** `{ command, args }`, the stdio server shape of most agents' JSON configs. */
export const stdioEntry = (c: ConnectContext): { command: string; args: string[] } => ({ command: c.command, args: c.args });

/**
 * The kinds of entry config.ts takes as they are (hostShape), and how upstreamTransport reaches them:
 * `"type": "sse"` is HTTP+SSE, a `url` without a type tries Streamable HTTP and falls back to SSE.
 */
export const upstreamsNote = (c: ConnectContext): string =>
  `Move the MCP servers you want Spillway to guard from this agent's config into ${c.configFile ?? `${c.home}/config.json`} under "mcpServers", entries as they are (stdio; url with "type" "http", "sse" (HTTP+SSE) or none, which tries Streamable HTTP and then SSE; httpUrl; OpenCode's local and remote); Spillway starts or connects to them and offers their tools.`;
