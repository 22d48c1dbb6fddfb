/**
 * THE inspector API contract: every operation's request schema and response type, and every
 * pushed event. The web routes, the handlers, the Electron preload and IPC and the renderer
 * client are all typed from this file; no operation name is spelled anywhere else.
 *
 * Transport-free and safe for the renderer to `import type`: it imports only zod and pure
 * type modules (a test checks this), never Node, SQLite or the engine.
 */
import { z } from "zod";
import type { EngineEvent } from "../../engine/engineEvents";
import {
  BLOB_ID_PATTERN,
  BLOB_ROLES,
  BLOB_SORT_KEYS,
  BLOB_STATES,
  SESSION_SORT_KEYS,
  FETCH_MODES,
  HISTORY_AGENTS,
  KINDS,
  LABELS,
  OUTCOMES,
  SAVINGS_GROUPS,
} from "../../vocabulary";
import type * as D from "./dto";
import type { ErrorCodeName } from "../../errors";
import type { OP_NAMES } from "./operations";

export type * from "./dto";
export type { EngineEvent };

const blobId = z.string().regex(BLOB_ID_PATTERN, "a blob id is 12 lowercase hex characters");
const blobIds = z.array(blobId).min(1).max(100_000);
const sessionId = z.string().min(1).max(500);
const kind = z.enum(KINDS);
const label = z.enum(LABELS);
const state = z.enum(BLOB_STATES);
const offset = z.int().min(0).default(0);
const dir = z.enum(["asc", "desc"]);
const none = z.object({}).strict().default({});

export { BLOB_SORT_KEYS };
export type BlobSortKey = D.BlobSortKey;

export const blobFilterSchema = z
  .object({
    /** Matches the id, tool, server or shape (case-insensitive substring). */
    text: z.string().max(200).optional(),
    tool: z.string().max(200).optional(),
    sessionId: z.string().max(500).optional(),
    kinds: z.array(kind).optional(),
    labels: z.array(label).optional(),
    states: z.array(state).optional(),
    minChars: z.int().min(0).optional(),
    maxChars: z.int().min(0).optional(),
    /** createdAt bounds in ms, inclusive. */
    from: z.number().optional(),
    to: z.number().optional(),
    role: z.enum(BLOB_ROLES).optional(),
  })
  .strict() satisfies z.ZodType<D.BlobFilter>;
export type BlobFilter = D.BlobFilter;

const fetchMode = z.enum(FETCH_MODES);
const agent = z.enum(HISTORY_AGENTS);
/** Which imported history a replay covers: one session, an agent's, a project's, or all. */
const replayScope = z
  .object({ sessionId: sessionId.optional(), agent: agent.optional(), project: z.string().max(4_000).optional() })
  .strict()
  .default({});
/** Policy objects as a policy file holds them; validated by the replay (core/replay/policy.ts), key by key. */
const replayPolicies = z.array(z.record(z.string(), z.unknown())).min(1).max(2).default([{}]);
export type FetchModeName = z.infer<typeof fetchMode>;

/** Request schemas, one per operation. The map's keys are the operation names. */
export const requestSchemas = {
  "overview.get": z
    .object({ since: z.number().min(0).default(0) })
    .strict()
    .default({ since: 0 }),
  "savings.get": z.object({ group: z.enum(SAVINGS_GROUPS), since: z.number().min(0).default(0) }).strict(),
  "blobs.list": z
    .object({
      offset,
      limit: z.int().min(1).max(2_000).default(200),
      sort: z
        .object({ by: z.enum(BLOB_SORT_KEYS), dir })
        .strict()
        .default({ by: "createdAt", dir: "desc" }),
      filter: blobFilterSchema.default({}),
    })
    .strict(),
  "blobs.facets": none,
  "blobs.get": z.object({ id: blobId }).strict(),
  "blobs.content": z
    .object({
      id: blobId,
      masked: z.boolean().default(true),
      by: z.enum(["lines", "chars"]).default("lines"),
      start: z.int().min(0).default(0),
      /** by "chars" only: `start` counts from the start of this 0-based line (a jump into a long line). */
      anchorLine: z.int().min(0).optional(),
      /** Lines (at most 20,000) or chars (at most 4,000,000). */
      count: z.int().min(1).max(4_000_000).default(2_000),
      /** Lines longer than this are cut in a lines page (see ContentPage.cutLines). */
      maxLineChars: z.int().min(100).max(1_000_000).default(20_000),
    })
    .strict(),
  "blobs.pin": z.object({ ids: blobIds }).strict(),
  "blobs.unpin": z.object({ ids: blobIds }).strict(),
  "blobs.purge": z.object({ ids: blobIds }).strict(),
  "blobs.export": z.object({ id: blobId, masked: z.boolean().default(true) }).strict(),
  "fetch.run": z
    .object({
      id: blobId,
      mode: fetchMode,
      args: z.record(z.string(), z.unknown()).default({}),
      /** Which view the jump targets refer to (the viewer's masked or revealed text). */
      masked: z.boolean().default(true),
    })
    .strict(),
  "search.all": z
    .object({
      query: z.string().trim().min(1).max(500),
      topK: z.int().min(1).max(200).default(50),
      /** Only blobs matching this filter (label, kind, tool, session, state…). */
      filter: blobFilterSchema.default({}),
    })
    .strict(),
  "sessions.list": z
    .object({
      offset,
      limit: z.int().min(1).max(1_000).default(200),
      query: z.string().max(200).optional(),
      sort: z
        .object({ by: z.enum(SESSION_SORT_KEYS), dir })
        .strict()
        .default({ by: "lastSeenAt", dir: "desc" }),
      /** true: only sessions imported from agents' histories; false: only live ones. */
      imported: z.boolean().optional(),
      agent: agent.optional(),
    })
    .strict(),
  "sessions.timeline": z
    .object({ sessionId, afterCallId: z.int().min(0).default(0), limit: z.int().min(1).max(500).default(200) })
    .strict(),
  /** A session's calls filtered over all of them (not only a loaded page), a page at a time. */
  "calls.find": z
    .object({
      sessionId,
      tool: z.string().min(1).max(300).optional(),
      outcome: z.enum(OUTCOMES).optional(),
      failuresOnly: z.boolean().default(false),
      text: z.string().max(500).optional(),
      afterCallId: z.int().min(0).default(0),
      limit: z.int().min(1).max(500).default(200),
    })
    .strict(),
  "calls.get": z.object({ callId: z.int().min(1) }).strict(),
  "events.get": z.object({ eventId: z.int().min(1) }).strict(),
  "tools.list": none,
  "tools.run": z
    .object({
      /** The tool's name as agents see it. */
      tool: z.string().min(1).max(300),
      args: z.record(z.string(), z.unknown()).default({}),
    })
    .strict(),
  "endpoint.status": none,
  "endpoint.start": none,
  "endpoint.stop": none,
  "endpoint.token": none,
  "connect.snippets": none,
  "config.get": none,
  "config.validate": z.object({ config: z.unknown() }).strict(),
  "config.set": z.object({ config: z.unknown() }).strict(),
  "store.sweep": none,
  "history.agents": none,
  /** Starts importing an agent's history (its own folder unless `path` names another); one import at a time. */
  "history.import": z.object({ agent, path: z.string().min(1).max(4_000).optional() }).strict(),
  "history.status": none,
  "history.cancel": none,
  "history.summary": none,
  "replay.run": z.object({ scope: replayScope, policies: replayPolicies, includeText: z.boolean().default(false) }).strict(),
  "replay.export": z.object({ scope: replayScope, policies: replayPolicies, format: z.enum(["md", "csv", "json"]).default("md") }).strict(),
} as const;

/** Response types, one per operation. */
export interface Responses {
  "overview.get": D.Overview;
  "savings.get": D.SavingsFigures[];
  "blobs.list": D.BlobList;
  "blobs.facets": D.BlobFacets;
  "blobs.get": D.BlobDetail;
  "blobs.content": D.ContentPage;
  "blobs.pin": { changed: string[] };
  "blobs.unpin": { changed: string[] };
  "blobs.purge": { changed: string[] };
  "blobs.export": D.ExportTicket;
  "fetch.run": D.FetchRun;
  "search.all": D.GlobalSearch;
  "sessions.list": D.SessionList;
  "sessions.timeline": D.Timeline;
  "calls.find": D.CallQueryPage;
  "calls.get": D.CallDetail;
  "events.get": D.EventDetail;
  "tools.list": D.ToolCatalog;
  "tools.run": D.ToolRun;
  "endpoint.status": D.EndpointStatus;
  "endpoint.start": D.EndpointStatus;
  "endpoint.stop": D.EndpointStatus;
  "endpoint.token": { token: string };
  "connect.snippets": D.ConnectSnippet[];
  "config.get": D.ConfigView;
  "config.validate": { valid: boolean; issues: D.ConfigIssue[] };
  "config.set": D.ConfigView;
  "store.sweep": D.SweepSummary;
  "history.agents": D.HistoryAgentInfo[];
  "history.import": D.ImportJob;
  "history.status": D.ImportJob | null;
  "history.cancel": D.ImportJob | null;
  "history.summary": D.HistorySummary;
  "replay.run": D.ReplayReport;
  "replay.export": D.ReplayExport;
}

export type OpName = (typeof OP_NAMES)[number];
// The schemas are keyed by exactly the zod-free list of operation names the preload uses.
const sameNames: Same<keyof typeof requestSchemas, OpName> = true;
void sameNames;
/** What a caller sends (defaults optional). */
export type Req<K extends OpName> = z.input<(typeof requestSchemas)[K]>;
/** What a handler receives (defaults filled in). */
export type ParsedReq<K extends OpName> = z.output<(typeof requestSchemas)[K]>;
export type Res<K extends OpName> = Responses[K];

/** Events pushed to every connected inspector. */
export interface PushedEvents {
  /** Something the engine of this process did. */
  engine: EngineEvent;
  /** The ledger grew through another process on the same store (an agent's `spillway mcp`). */
  ledger: { lastEventId: number };
  endpoint: D.EndpointStatus;
  config: { savedAt: number };
}
export type EventName = keyof PushedEvents;
export type Pushed = { [K in EventName]: { event: K; data: PushedEvents[K] } }[EventName];

/** Error codes at the inspector boundary: the one set of Spillway's codes (core/errors.ts). */
export type InspectorErrorCode = ErrorCodeName;

export interface InspectorError {
  code: InspectorErrorCode;
  message: string;
  /** The offending field, when the error is about one (`filter.minChars`, `rescue.thresholdChars`). */
  path?: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: InspectorError };

type Namespace<K> = K extends `${infer N}.${string}` ? N : never;
type Method<K, N extends string> = K extends `${N}.${infer M}` ? M : never;

/**
 * The client shape: `api.blobs.list(req)`, one method per operation. The web client and the
 * Electron preload (`window.spillway`) both implement it.
 */
export type InspectorApi = {
  [N in Namespace<OpName>]: {
    [M in Method<OpName, N>]: `${N}.${M}` extends infer K extends OpName ? (req: Req<K>) => Promise<Result<Res<K>>> : never;
  };
} & {
  /** Subscribes to pushed events; returns the unsubscribe function. */
  subscribe(listener: (e: Pushed) => void): () => void;
};

// Compile-time guard: requests and responses list the same operations.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameOps: Same<keyof Responses, OpName> = true;
void sameOps;
