/**
 * Claude Code tells an HTTP MCP server nothing about its session, but it sends the tool-use id
 * of each call in `_meta["claudecode/toolUseId"]`, and its PreToolUse hook names that same id
 * with the session id a moment before. Remembering the pair lets `spillway serve` count the MCP
 * call, and the MCP session it came on, in the Claude Code session whose hooks stored the handles.
 * Until its first call, a connected MCP session of Claude Code's is all the hooks can know of it.
 */

/** The `_meta` key Claude Code puts the tool-use id under in tools/call. */
export const CLAUDE_TOOL_USE_META = "claudecode/toolUseId";

export interface ToolUseSessionsOptions {
  /** Pairs kept at most (oldest dropped first). */
  max?: number;
  /** How long a pair waits for its MCP call. */
  ttlMs?: number;
  now?: () => number;
}

/** Tool-use id → Claude Code session id, for the few seconds between PreToolUse and the MCP call. */
export class ToolUseSessions {
  private readonly pairs = new Map<string, { sessionId: string; at: number }>();
  /** Open HTTP MCP sessions by their client's name, each with whether its client is connected now. */
  private readonly clients = new Map<string, Set<{ connected: () => boolean }>>();
  private readonly max: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(opts: ToolUseSessionsOptions = {}) {
    this.max = opts.max ?? 10_000;
    this.ttlMs = opts.ttlMs ?? 10 * 60_000;
    this.now = opts.now ?? Date.now;
  }

  record(toolUseId: string, sessionId: string): void {
    this.pairs.delete(toolUseId);
    this.pairs.set(toolUseId, { sessionId, at: this.now() });
    while (this.pairs.size > this.max) this.pairs.delete(this.pairs.keys().next().value as string);
  }

  /** The session that announced this tool-use id, once; null when unknown or too old. */
  take(toolUseId: string): string | null {
    const p = this.pairs.get(toolUseId);
    if (!p) return null;
    this.pairs.delete(toolUseId);
    return this.now() - p.at <= this.ttlMs ? p.sessionId : null;
  }

  /**
   * An HTTP MCP session's client initialized; `connected` says whether it still is (its GET stream
   * open or a request in flight). Call the function returned when that session closes (once).
   */
  clientOpened(name: string, connected: () => boolean): () => void {
    let set = this.clients.get(name);
    if (!set) this.clients.set(name, (set = new Set()));
    const entry = { connected };
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.clients.get(name) === set) this.clients.delete(name);
    };
  }

  /**
   * Whether a client of this name (its clientInfo) is connected to an MCP session now. An open
   * session alone does not count: `claude mcp list` initializes one, lists tools and exits
   * without closing it, and that session would otherwise stand for every Claude Code session on
   * this endpoint until it idles out.
   */
  clientOpen(name: string): boolean {
    for (const c of this.clients.get(name) ?? []) if (c.connected()) return true;
    return false;
  }

  /** The session named by a tools/call's `_meta`, if Claude Code announced it. */
  fromMeta(meta: unknown): string | null {
    if (!meta || typeof meta !== "object") return null;
    const id = (meta as Record<string, unknown>)[CLAUDE_TOOL_USE_META];
    return typeof id === "string" && id.length > 0 ? this.take(id) : null;
  }
}
