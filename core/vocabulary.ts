/**
 * The product's vocabulary, declared once: content kinds, sensitivity labels, blob states,
 * outcomes, ledger events, fetch modes, savings groups, Spillway's own tool names and the blob-id
 * pattern. The zod schemas (config, inspector contract, fetch arguments), the store and the
 * renderer all build on these lists. Plain constants with no imports: safe for every zone.
 */

/** Content kinds detected from a result's text. */
export const KINDS = ["json", "ndjson", "csv", "tsv", "html", "xml", "markdown", "code", "log", "text"] as const;

/** Sensitivity labels, lowest first (a blob's label is the highest it ever got). */
export const LABELS = ["public", "internal", "personal", "credential"] as const;

/** A blob's lifecycle state as the inspector shows it. */
export const BLOB_STATES = ["live", "pinned", "tombstoned"] as const;

/**
 * What the interception path did with one tool call: rescued, stubbed or passed through; or
 * `error` when the call produced no result (the upstream crashed, timed out or refused it, the
 * tool is unknown) and the model got Spillway's sentence instead.
 */
export const OUTCOMES = ["rescued", "stubbed", "passthrough", "failed_open", "error"] as const;

/** Ledger event types. */
export const EVENT_TYPES = [
  "rescue",
  "stub",
  "passthrough",
  "error",
  "fetch",
  "recall",
  "expansion",
  "label",
  "sweep",
  "evict",
  "pin",
  "unpin",
  "purge",
  "compaction",
  "turn",
  "import",
] as const;

/** The ledger events that record a call itself (one per call row), as opposed to what happened to its result later. */
export const CALL_EVENT_TYPES = ["rescue", "stub", "passthrough", "error"] as const;

/** Agents whose own history files `spillway import` reads. */
export const HISTORY_AGENTS = ["claude-code", "codex", "gemini-cli", "opencode"] as const;

/** rescuer_fetch modes, in the order the model is told about them. */
export const FETCH_MODES = ["stat", "outline", "search", "grep", "chain", "range", "query", "full"] as const;

/** The higher of two labels. */
export function maxLabel(a: Label, b: Label): Label {
  return LABELS.indexOf(a) >= LABELS.indexOf(b) ? a : b;
}

/** How savings figures are grouped. */
export const SAVINGS_GROUPS = ["total", "session", "tool", "server", "day", "hour"] as const;

/** Columns the blobs table sorts by, server side. */
export const BLOB_SORT_KEYS = [
  "createdAt",
  "lastAccessAt",
  "expiresAt",
  "chars",
  "lines",
  "tool",
  "sessionId",
  "kind",
  "label",
  "state",
  "fetchCount",
  "id",
] as const;
/**
 * What a stored blob was to the model: a result it got as a handle (`rescued`), a copy kept only
 * to stub repeats of a result it got in full (`dedup`), or content no recorded call returned.
 */
export const BLOB_ROLES = ["rescued", "dedup", "other"] as const;
/** Columns the sessions list sorts by, server side. */
export const SESSION_SORT_KEYS = ["lastSeenAt", "createdAt", "calls", "netTokens", "id", "client", "errors", "fetches"] as const;
/**
 * What a call's raw record is: the JSON-RPC request and response of an MCP call, or the hook request
 * an agent host sent (a Claude Code PostToolUse or PostToolUseFailure payload) and Spillway's answer.
 */
export const RAW_RECORD_KINDS = ["jsonrpc", "hook"] as const;

/** Spillway's own model-facing tools: never rescued, never expanded, never proxied. */
export const OWN_TOOLS = { fetch: "rescuer_fetch", recall: "recall_result" } as const;
export const OWN_TOOL_NAMES: readonly string[] = Object.values(OWN_TOOLS);

/** Whether `name` is one of Spillway's own tools. */
export function isOwnToolName(name: string): boolean {
  return OWN_TOOL_NAMES.includes(name);
}

/**
 * Whether a tool name as an agent host shows it is one of Spillway's own tools, whatever the host
 * put before it (`mcp__spillway__recall_result`, `mcp_spillway_recall_result`,
 * `spillway_recall_result`, `spillway.recall_result`): what imported history holds.
 */
export function isOwnToolAsHostNamed(name: string): boolean {
  return OWN_TOOL_NAMES.some((own) => name === own || (name.endsWith(own) && /[_.:/]$/.test(name.slice(0, -own.length))));
}

/** Blob ids: 12 lowercase hex characters. */
export const BLOB_ID_SOURCE = "[0-9a-f]{12}";
export const BLOB_ID_PATTERN = new RegExp(`^${BLOB_ID_SOURCE}$`);
/** The pass-by-reference token, `spill:<id>`. */
export const SPILL_TOKEN_PATTERN = new RegExp(`\\bspill:(${BLOB_ID_SOURCE})\\b`);
/** The resource URI of a stored blob. */
export const BLOB_URI_PREFIX = "spillway://blob/";
/** Before a token figure that holds counts estimated from a sample of a big result (issue 12). */
export const ESTIMATE_MARK = "≈";
/** Why a token figure carries ESTIMATE_MARK, in the words the inspector and the CLI use. */
export const ESTIMATE_NOTE = "estimated from a sample of the result";
/** "1 big result estimated from…", "3 big results estimated from…": `formatted` is `n` as the caller prints numbers. */
export function estimatedResultsNote(n: number, formatted = String(n)): string {
  return `${formatted} big ${n === 1 ? "result" : "results"} ${ESTIMATE_NOTE}`;
}

export type Kind = (typeof KINDS)[number];
export type Label = (typeof LABELS)[number];
export type BlobState = (typeof BLOB_STATES)[number];
export type Outcome = (typeof OUTCOMES)[number];
export type EventType = (typeof EVENT_TYPES)[number];
export type FetchMode = (typeof FETCH_MODES)[number];
export type HistoryAgent = (typeof HISTORY_AGENTS)[number];
export type SavingsGroup = (typeof SAVINGS_GROUPS)[number];
export type BlobSortKey = (typeof BLOB_SORT_KEYS)[number];
export type SessionSortKey = (typeof SESSION_SORT_KEYS)[number];
export type BlobRole = (typeof BLOB_ROLES)[number];
export type RawRecordKind = (typeof RAW_RECORD_KINDS)[number];
