/**
 * One upstream MCP server: connected lazily, reconnected after a crash with exponential backoff,
 * every request under a timeout. Failures become upstream SpillwayErrors with a sentence for the model.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  McpError,
  type CallToolResult,
  type ClientRequest,
  type ServerCapabilities,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { AnySchema, SchemaOutput } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { configuredTransport, type UpstreamConfig, type UpstreamTransport } from "../config/config";
import { expandEntry } from "../config/expand";
import { describeError, type SpillwayError } from "../errors";
import { systemClock } from "../runtime";
import { ProgressTokens } from "./lateProgress";
import { LineStdioClientTransport } from "./stdioClientTransport";
import { upstreamTransport } from "./upstreamTransport";
import { isUpstreamError, upstreamError } from "./upstreamError";
import { needsTask } from "./toolRoutes";
import { upstreamClient } from "./upstreamClient";
import { explainFailure, localFailure } from "./upstreamExplain";
import type { CallOptions, ClientBoundRequest, RelayCapabilities, UpstreamOptions } from "./upstreamTypes";
import { describeUpstreamError, fallsBackToSse, sessionGone, unreachable } from "./upstreamHttpErrors";

export type UpstreamState = "idle" | "starting" | "ready" | "down";

// In their own module so the proxy can name them without loading the MCP client.
export { isUpstreamError, upstreamError };
export type { CallOptions, ClientBoundRequest, RelayCapabilities, UpstreamOptions };

/** Starting a server (spawn + initialize) gets its own allowance: npx-style servers can take a while. */
const START_TIMEOUT_MS = 30_000;
const BACKOFF_BASE_MS = 250;
/** The longest backoff a call waits out before answering "restarting, try again". */
const MAX_WAIT_MS = 5_000;
const BACKOFF_MAX_MS = 30_000;
/** How long a Streamable HTTP server whose stream broke has to answer a ping before it counts as gone. */
const PROBE_TIMEOUT_MS = 5_000;

export class Upstream {
  state: UpstreamState = "idle";
  /** The last tool list the server gave; null until listed or after list_changed. */
  tools: Tool[] | null = null;
  lastError: string | null = null;
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private failures = 0;
  private retryAt = 0;
  private closed = false;
  private stderrTail: string[] = [];
  private transport: Transport | null = null;
  /** The client declared roots to this server, so it may hear roots/list_changed. */
  private declaredRoots = false;
  /** For an HTTP entry without a type: the transport the server answered on. */
  private found: UpstreamTransport | null = null;
  /** The names of the task-only tools last logged as left out, so a server's list is told of once. */
  private taskOnlyTold = "";

  constructor(
    readonly name: string,
    readonly config: UpstreamConfig,
    private readonly opts: UpstreamOptions,
  ) {}

  /** The child's pid for stdio upstreams (tests kill it to simulate a crash). */
  get pid(): number | null {
    return this.transport instanceof LineStdioClientTransport ? this.transport.pid : null;
  }

  /**
   * Connects if needed. While a restart is backing off, a call waits out a short delay; tools/list
   * (`wait` false) and long delays fail fast with a sentence instead of stalling the client.
   */
  async connect(wait = true): Promise<Client> {
    if (this.closed) throw upstreamError(`The upstream server ${this.name} has been shut down.`);
    if (this.client) return this.client;
    if (!this.connecting) {
      const delay = this.retryAt - (this.opts.clock ?? systemClock).now();
      if (delay > 0 && (!wait || delay > MAX_WAIT_MS)) {
        throw upstreamError(
          `The upstream server ${this.name} is restarting (${this.lastError ?? "it failed"}); try again in ${Math.ceil(delay / 1000)} s.`,
        );
      }
      this.connecting = this.open(Math.max(0, delay)).finally(() => (this.connecting = null));
    }
    return this.connecting;
  }

  private async open(delayMs: number): Promise<Client> {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (this.closed) throw upstreamError(`The upstream server ${this.name} has been shut down.`);
    this.state = "starting";
    const c = this.config;
    let entry: UpstreamConfig;
    try {
      entry = expandEntry(c, process.env);
      if ("url" in entry && !URL.canParse(entry.url)) throw new Error("its url is not a URL once its variables are filled in");
    } catch (err) {
      return this.startFailed(err);
    }
    // An HTTP entry without a type: Streamable HTTP, else HTTP+SSE (found once, kept for restarts).
    const auto = "url" in c && c.type === undefined && this.found === null;
    let client: Client;
    try {
      client = await this.attempt(entry, this.found ?? configuredTransport(c));
      if (auto) this.found = "http";
    } catch (err) {
      if (!(auto && !this.closed && fallsBackToSse(err))) return this.startFailed(err);
      this.opts.logger.info("upstream answered Streamable HTTP with a client error; trying HTTP+SSE", {
        server: this.name,
        error: describeError(err),
      });
      try {
        client = await this.attempt(entry, "sse");
        this.found = "sse";
      } catch (sseErr) {
        return this.startFailed(sseErr, `over Streamable HTTP: ${describeUpstreamError(err)}; over HTTP+SSE: `);
      }
    }
    this.client = client;
    this.state = "ready";
    this.opts.logger.info("upstream connected", { server: this.name, pid: this.pid, transport: this.transportKind });
    return client;
  }

  private startFailed(err: unknown, before = ""): never {
    const why = `${before}${describeUpstreamError(err)}${this.stderrHint()}`;
    this.failed(`it did not start: ${why}`);
    throw upstreamError(`The upstream server ${this.name} could not be started: ${why}.`);
  }

  /** The transport in use: the one found for an entry without a type, else the one it names. */
  get transportKind(): UpstreamTransport {
    return this.found ?? configuredTransport(this.config);
  }

  /** A client with the proxy's handlers, connected over `kind`; on failure nothing is left open. */
  private async attempt(entry: UpstreamConfig, kind: UpstreamTransport): Promise<Client> {
    const { client, declaredRoots } = upstreamClient(this.opts, () => {
      this.tools = null;
      this.opts.onToolsChanged();
    });
    this.declaredRoots = declaredRoots;
    const transport = upstreamTransport(this.name, entry, kind, this.opts.logger, this.stderrTail);
    this.transport = transport;
    const progress = new ProgressTokens();
    progress.watch(transport);
    client.onclose = () => this.lost(client);
    client.onerror = (err) => {
      const late = progress.late(err);
      if (late !== null) {
        // The server sent it just before its result; the SDK took the result first. Nothing was lost but that progress.
        if (late === "first") this.opts.logger.info("progress notification arrived after its request ended", { server: this.name });
        return;
      }
      // While connecting, the failure is reported by the start (and a Streamable HTTP refusal before
      // falling back to SSE is expected): a warning only once connected.
      const log = this.client === client ? this.opts.logger.warn : this.opts.logger.info;
      log.call(this.opts.logger, "upstream transport error", { server: this.name, error: describeError(err) });
      // The SSE stream broke (the server went away): its session is gone with it, so the connection is
      // closed and the next request starts a new one, rather than the event source reconnecting into
      // a session nobody initialized.
      if (kind === "sse" && err instanceof SseError && this.client === client) void client.close();
      if (kind === "http" && this.client === client) this.streamTrouble(client, err);
    };
    try {
      await client.connect(transport, { timeout: Math.max(this.opts.timeoutMs, START_TIMEOUT_MS) });
    } catch (err) {
      await client.close().catch(() => {});
      if (this.transport === transport) this.transport = null;
      throw err;
    }
    return client;
  }

  /**
   * A Streamable HTTP stream broke. The SDK resumes a stream that sent an event id, and reports
   * when it gave up; a stream without one is simply gone, and so are the answers it would have
   * carried. Either way, when the server cannot be reached the connection is closed, so the calls
   * waiting on it fail now ("stopped while running") instead of at their timeout.
   */
  private streamTrouble(client: Client, err: Error): void {
    if (err.message.startsWith("Maximum reconnection attempts")) {
      void client.close();
      return;
    }
    if (!err.message.startsWith("SSE stream disconnected")) return;
    client.ping({ timeout: PROBE_TIMEOUT_MS }).catch((probe: unknown) => {
      // The server answered with an error of its own: it is there. Anything else: it is not.
      if (probe instanceof McpError && localFailure(probe) === null) return;
      if (this.client === client) void client.close();
    });
  }

  /** Forgets the connection without counting a failure (its session ended; a new one starts on the next request). */
  private drop(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.transport = null;
    this.state = "idle";
    void client.close().catch(() => {});
  }

  /**
   * Runs a request on the connection; for Streamable HTTP, once more on a new session when the
   * server says it no longer knows this one (the request was not run), and with the connection
   * dropped when the server cannot be reached (the next request reconnects, after the backoff).
   */
  private async onSession<T>(wait: boolean, go: (client: Client) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.connect(wait);
      try {
        return await go(client);
      } catch (err) {
        if (this.transportKind === "http" && this.client === client) {
          if (attempt === 0 && sessionGone(err)) {
            this.opts.logger.info("upstream session ended; starting a new one", { server: this.name, error: describeError(err) });
            this.drop(client);
            this.tools = null;
            continue;
          }
          const network = unreachable(err);
          if (network !== null) {
            this.drop(client);
            this.failed(`it could not be reached (${network})`);
          }
        }
        throw err;
      }
    }
  }

  private stderrHint(): string {
    const last = this.stderrTail.at(-1);
    return last ? ` (its last message: ${last.trim()})` : "";
  }

  private failed(why: string): void {
    this.failures++;
    this.retryAt = (this.opts.clock ?? systemClock).now() + Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (this.failures - 1));
    this.lastError = why;
    this.state = "down";
  }

  /** The connection closed: expected on shutdown, a crash otherwise. */
  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.transport = null;
    if (this.closed) return;
    this.failed(`it exited or closed the connection${this.stderrHint()}`);
    this.opts.logger.warn("upstream lost; it will be restarted on the next request", {
      server: this.name,
      stderr: this.stderrTail.slice(-5),
    });
  }

  /** All tools, following pagination. */
  async listTools(wait = false): Promise<Tool[]> {
    if (this.tools) return this.tools;
    let tools: Tool[];
    try {
      tools = await this.onSession(wait, async (client) => {
        const all: Tool[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor ? { cursor } : {}, { timeout: this.opts.timeoutMs });
          all.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor);
        return all;
      });
    } catch (err) {
      throw this.explain(err, "tools/list");
    }
    this.tellTaskOnly(tools);
    this.tools = tools;
    return tools;
  }

  /** Logs, once per list that has them, the tools the proxy leaves out because they can run only as tasks. */
  private tellTaskOnly(tools: Tool[]): void {
    const taskOnly = tools.filter(needsTask).map((t) => t.name);
    const told = taskOnly.join("\n");
    if (told === this.taskOnlyTold) return;
    this.taskOnlyTold = told;
    if (taskOnly.length)
      this.opts.logger.info("tools left out: they require task augmentation, which Spillway does not forward", {
        server: this.name,
        tools: taskOnly,
      });
  }

  /** tools/call, forwarded raw (no outputSchema validation here: the proxy decides what the client gets). */
  async callTool(name: string, args: unknown, opts: CallOptions = {}): Promise<CallToolResult> {
    try {
      const result = await this.onSession(true, (client) =>
        client.request(
          {
            method: "tools/call",
            params: { name, arguments: (args ?? {}) as Record<string, unknown>, ...(opts.meta ? { _meta: opts.meta } : {}) },
          },
          CallToolResultSchema,
          {
            signal: opts.signal,
            timeout: this.opts.timeoutMs,
            onprogress: opts.onprogress,
            resetTimeoutOnProgress: opts.onprogress !== undefined,
          },
        ),
      );
      this.failures = 0;
      return result as CallToolResult;
    } catch (err) {
      throw this.explain(err, name, opts.signal);
    }
  }

  /** Tells a connected server that the client's roots changed; a server not started yet will ask when it starts. */
  async rootsChanged(): Promise<void> {
    if (this.client && this.declaredRoots) await this.client.sendRootsListChanged();
  }

  /** What the connected server offers (prompts, resources, logging, completions…). */
  async capabilities(): Promise<ServerCapabilities> {
    const client = await this.connect(false);
    return client.getServerCapabilities() ?? {};
  }

  /** Any other request (prompts, resources, completion, logging), forwarded raw under the timeout. */
  async forward<S extends AnySchema>(
    method: string,
    params: Record<string, unknown>,
    schema: S,
    signal?: AbortSignal,
  ): Promise<SchemaOutput<S>> {
    try {
      const result = await this.onSession(true, (client) =>
        client.request({ method, params } as ClientRequest, schema, { signal, timeout: this.opts.timeoutMs }),
      );
      this.failures = 0;
      return result;
    } catch (err) {
      // The server's own refusal (unknown prompt, bad URI) reaches the client as that MCP error.
      if (err instanceof McpError && localFailure(err) === null) throw err;
      throw this.explain(err, method, signal);
    }
  }

  private explain(err: unknown, what: string, signal?: AbortSignal): SpillwayError {
    const { name, opts } = this;
    return explainFailure(err, {
      server: name,
      what,
      signal,
      timeoutMs: opts.timeoutMs,
      connected: this.client !== null,
      hint: this.stderrHint(),
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client;
    const starting = c ? null : this.transport;
    this.client = null;
    this.state = "idle";
    if (c) await c.close().catch(() => {});
    // Still starting (upstreams start in the background now): stop the child too, or it outlives us.
    else if (starting) await starting.close().catch(() => {});
  }
}
