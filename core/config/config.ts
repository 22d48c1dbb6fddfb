/** The one typed configuration object: every default lives in this schema. */
import { readFileSync, existsSync } from "node:fs";
import { z } from "zod";
import { ErrorCode, SpillwayError } from "../errors";
import { readJsonSpans } from "../text";
import { LABELS } from "../vocabulary";
import { hasVariables } from "./expand";

const stdioServer = z
  .object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    /** Kept in the file, never started. */
    disabled: z.boolean().optional(),
  })
  .strict();
const httpServer = z
  .object({
    /**
     * "http" (Streamable HTTP) or "sse" (the 2024-11-05 HTTP+SSE transport). Without a type,
     * Streamable HTTP is tried first and SSE when the server answers its POST with 400, 404 or 405,
     * as the MCP spec's backwards-compatibility section tells clients to.
     */
    type: z.enum(["http", "streamable-http", "streamableHttp", "sse"]).optional(),
    // A URL, or one with ${VAR} placeholders (checked once they are filled in, when the server starts).
    url: z.string().refine((v) => hasVariables(v) || URL.canParse(v), { message: "Invalid URL" }),
    headers: z.record(z.string(), z.string()).default({}),
    disabled: z.boolean().optional(),
  })
  .strict();

/**
 * Keys other hosts put on a server entry that only concern that host (approval lists, its own
 * timeout): dropped. Not `envFile`: the server needs what it loads, so it is named as unknown.
 */
const HOST_ONLY_KEYS = ["timeout", "trust", "description", "alwaysAllow", "autoApprove"];

/**
 * A server entry as another agent's config writes it, in Spillway's shape, so one can be moved
 * over as it is: Cursor's `{ url }` and Gemini CLI's `url` (no type: either HTTP transport, found
 * on connecting), Claude Code's `{ type: "sse" | "http", url }`, Gemini CLI's `httpUrl`,
 * OpenCode's `{ type: "local", command: [...], environment }` and `{ type: "remote", url }`,
 * `enabled: false` (OpenCode) as `disabled`.
 */
function hostShape(input: unknown): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const e: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const k of HOST_ONLY_KEYS) delete e[k];
  if (typeof e.enabled === "boolean") {
    if (!e.enabled) e.disabled = true;
    delete e.enabled;
  }
  if (typeof e.httpUrl === "string" && e.url === undefined) {
    e.url = e.httpUrl;
    delete e.httpUrl;
    e.type ??= "http";
  }
  if (e.type === "local" && Array.isArray(e.command)) {
    const [command, ...args] = e.command as unknown[];
    e.type = "stdio";
    e.command = command;
    e.args = Array.isArray(e.args) ? [...args, ...(e.args as unknown[])] : e.args === undefined ? args : e.args;
  }
  // OpenCode's remote servers, like a bare `{ url }`, may speak either HTTP transport.
  if (e.type === "remote") delete e.type;
  if (e.environment !== undefined && e.env === undefined) {
    e.env = e.environment;
    delete e.environment;
  }
  return e;
}

export const upstreamSchema = z.preprocess(hostShape, z.union([httpServer, stdioServer]));
export type UpstreamConfig = z.infer<typeof upstreamSchema>;

/** How an upstream is reached: a child over stdio, Streamable HTTP, or HTTP+SSE. */
export type UpstreamTransport = "stdio" | "http" | "sse";

/** The transport an entry names; an HTTP entry without a type reads as "http" until a connection says otherwise. */
export function configuredTransport(c: UpstreamConfig): UpstreamTransport {
  if (!("url" in c)) return "stdio";
  return c.type === "sse" ? "sse" : "http";
}

const labelSchema = z.enum(LABELS);

export const configSchema = z
  .object({
    rescue: z
      .object({
        thresholdChars: z.int().min(200).default(12_000),
        /** Tools (exact names or `server__*`-style globs with `*`) never rescued. */
        excludeTools: z.array(z.string()).default([]),
        /** When non-empty, only these tools are rescued. */
        includeTools: z.array(z.string()).default([]),
        /** Per-tool thresholds, by exact tool name or glob. */
        toolThresholds: z.record(z.string(), z.int().min(200)).default({}),
      })
      .strict()
      .prefault({}),
    excerpt: z
      .object({
        /** Exact cap on an excerpt. */
        maxChars: z.int().min(200).default(8_000),
        /** Within the cap, the budget is this share of the result's size, and at least minChars. */
        minChars: z.int().min(200).default(2_000),
        share: z.number().min(0).max(1).default(0.1),
      })
      .strict()
      .prefault({}),
    fetch: z
      .object({
        maxChars: z.int().min(200).default(4_000),
        fullMaxChars: z.int().min(1_000).default(50_000),
      })
      .strict()
      .prefault({}),
    dedup: z
      .object({
        minChars: z.int().min(1).default(2_000),
        maxChars: z.int().min(1).default(2_000_000),
        maxStubStreak: z.int().min(1).default(5),
        /** A result that differs from the same call's last one in a few lines becomes a stub plus those lines. */
        nearDuplicates: z.boolean().default(true),
        /** At most this share of its lines changed (not counting timings, temp paths, ids) for a near-duplicate stub. */
        nearMaxChangedShare: z.number().min(0).max(1).default(0.2),
        /** A result that is, as JSON, an argument of the same call (a write tool echoing what it wrote) becomes a one-line stub. */
        echoStubs: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    store: z
      .object({
        ttlHours: z.number().positive().default(72),
        hotTtlHours: z.number().positive().default(168),
        hotFetchCount: z.int().min(1).default(3),
        tombstoneTtlHours: z.number().positive().default(720),
        maxStoreMb: z.number().positive().default(500),
        sweepIntervalMinutes: z.number().positive().default(10),
        /**
         * Days a call's detail is kept: its raw record (JSON-RPC or hook exchange), the texts it
         * returned and was given, its arguments beyond a preview, thumbnails and the answers its
         * reads gave. Past it a sweep removes them; the call's figures and its row in the session
         * stay. Calls of pinned blobs and imported history keep theirs. 0: kept forever.
         */
        detailTtlDays: z.number().min(0).default(30),
      })
      .strict()
      .prefault({}),
    passref: z
      .object({
        maxChars: z.int().min(1).default(500_000),
        totalMaxChars: z.int().min(1).default(2_000_000),
        allowedTools: z.array(z.string()).default([]),
        credentialDestinations: z.array(z.string()).default([]),
      })
      .strict()
      .prefault({}),
    sensitivity: z
      .object({
        /** What the model gets: `mask` credential-shaped spans, `audit` (label and record only) or `off`. */
        mode: z.enum(["mask", "audit", "off"]).default("mask"),
        /** Label floor per tool (exact name or glob). */
        toolLabels: z.record(z.string(), labelSchema).default({}),
        /**
         * Tools (exact names or globs) whose results reach the model unmasked because returning a
         * secret is their job (a vault read). What is written under the home stays masked.
         */
        unmaskedTools: z.array(z.string()).default([]),
      })
      .strict()
      .prefault({}),
    server: z
      .object({
        host: z.literal("127.0.0.1").default("127.0.0.1"),
        port: z.int().min(1).max(65_535).default(7341),
        /**
         * How long a request to an upstream may take (progress the client asked for restarts it): not
         * shorter than the tool timeouts `spillway connect` writes into the hosts (300 s), or a tool
         * that works when connected directly would fail only behind Spillway.
         */
        upstreamTimeoutMs: z.int().min(1_000).default(600_000),
        /** MCP-over-HTTP sessions unused this long are closed (clients rarely send DELETE). */
        sessionIdleMinutes: z.number().positive().max(10_080).default(30),
        /**
         * Open MCP-over-HTTP sessions at most; past it the least recently used one that nothing
         * holds (no request running, no open stream, no answer its client has not received) is
         * closed, and when all are held a new one is refused.
         */
        maxSessions: z.int().min(1).max(100_000).default(256),
        /**
         * How long after its client was last seen a session is still held for answers the client
         * has not received (a call still running, or an answer waiting for a resume after a poll
         * or a dropped connection): past it, a client that never came back no longer pins a slot.
         */
        resumeGraceMs: z.int().min(0).max(86_400_000).default(120_000),
        /**
         * How long tools/list waits for upstream servers whose tools are not in the cached catalog
         * yet (a first start, a new or edited server entry) before answering with what it has; the
         * rest follows with notifications/tools/list_changed.
         */
        firstListWaitMs: z.int().min(0).max(120_000).default(5_000),
        /** The `retry` an MCP-over-HTTP client is told to wait before it reconnects a stream with Last-Event-ID. */
        sseRetryMs: z.int().min(0).max(60_000).default(1_000),
        /**
         * SSE events kept per MCP-over-HTTP session for clients that reconnect with Last-Event-ID
         * (KB of message JSON; the oldest are dropped past it, and a resume from a dropped one is refused).
         */
        resumeBufferKB: z.int().min(16).max(262_144).default(1_024),
        /**
         * A request over HTTP still unanswered after this long has its SSE stream closed, and again
         * after each resume, so the client polls (SEP-1699; only clients that can resume). 0: streams
         * stay open until the answer, which costs nothing on loopback.
         */
        streamHoldMs: z.int().min(0).max(3_600_000).default(0),
      })
      .strict()
      .prefault({}),
    tokenizer: z.enum(["o200k_base", "cl100k_base"]).default("o200k_base"),
    mcpServers: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, "server names use letters, digits, _ . -"), upstreamSchema).default({}),
  })
  .strict();

export type SpillwayConfig = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

/** The configuration with every default filled in. */
export function defaultConfig(): SpillwayConfig {
  return configSchema.parse({});
}

/** Bad keys a config error names before it says how many more there are. */
const ISSUES_NAMED = 5;

type Issue = z.core.$ZodIssue;

/**
 * A union's failure ("Invalid input" on an MCP server entry) as the issues of the branch the
 * user most likely meant: the one with the fewest issues, and on a tie the one whose `type` was
 * not what failed. `{ "command": 5 }` then says "command: expected string", not "Invalid input".
 */
function meant(issue: Issue): Issue[] {
  // A bad server name: what the name should be, not "Invalid key in record".
  if (issue.code === "invalid_key" && issue.issues.length > 0) return [{ ...issue, message: issue.issues[0]!.message }];
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return [issue];
  const typeFailed = (branch: Issue[]) => branch.some((i) => i.path.length === 1 && i.path[0] === "type");
  const best = issue.errors.toSorted((a, b) => a.length - b.length || Number(typeFailed(a)) - Number(typeFailed(b)))[0]!;
  return best.flatMap((i) => meant({ ...i, path: [...issue.path, ...i.path] } as Issue));
}

/** Each bad key of a failed validation and what was expected (a union's failure as the branch meant). */
export function configIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.flatMap(meant).map((i) => ({ path: i.path.length ? i.path.join(".") : "(top level)", message: i.message }));
}

/** Validates a config object; a failure names every bad key (the first few) and what was expected, so one edit can fix them all. */
export function parseConfig(input: unknown, source = "config"): SpillwayConfig {
  const result = configSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw new SpillwayError(ErrorCode.BadConfig, `${source}: ${issuesSentence(configIssues(result.error))}`);
}

/** `"a.b": what was expected; "c": …`: the first few issues, then how many more. */
export function issuesSentence(issues: { path: string; message: string }[]): string {
  const named = issues.slice(0, ISSUES_NAMED).map((i) => `"${i.path}": ${i.message}`);
  const more = issues.length > ISSUES_NAMED ? `; and ${issues.length - ISSUES_NAMED} more` : "";
  return named.join("; ") + more;
}

/** Reads and validates a config file; a missing file means all defaults. */
export function loadConfigFile(path: string): SpillwayConfig {
  if (!existsSync(path)) return defaultConfig();
  let raw: unknown;
  const text = readFileSync(path, "utf8");
  try {
    raw = JSON.parse(text);
  } catch (err) {
    // Where, as a line and column: the JSONC reader names the spot (and reads comments, which JSON.parse refuses).
    let where = "";
    try {
      readJsonSpans(text, path);
      where = ": it has comments or trailing commas, which this file may not (plain JSON only)";
    } catch (located) {
      where = `: ${(located as Error).message.replace(`${path} is not valid JSON at `, "").replace(/; it was left as it is\.$/, "")}`;
    }
    throw new SpillwayError(ErrorCode.BadConfig, `${path}: not valid JSON${where || ` (${(err as Error).message})`}`);
  }
  return parseConfig(raw, path);
}

/** Whether `name` matches a pattern that may contain `*` wildcards. */
export function matchesToolPattern(pattern: string, name: string): boolean {
  if (!pattern.includes("*")) return pattern === name;
  const re = new RegExp(
    "^" +
      pattern
        .split("*")
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*") +
      "$",
  );
  return re.test(name);
}
