/**
 * Response shapes of the inspector API. Pure types: the renderer imports this file (through
 * contract.ts) with `import type`, so nothing here may import Node, SQLite or runtime values.
 */
import type { BlobMeta, BlobState, EventType, Kind, Label, Outcome, SavingsGroup, SavingsRow } from "../../types";

export type { BlobMeta, BlobState, EventType, Kind, Label, Outcome, SavingsGroup };
export type * from "../../store/read/readModel";
import type { BlobRow, ByReference, LedgerEvent, Lineage, StoredHandle } from "../../store/read/readModel";
import type { HistoryAgent } from "../../vocabulary";
import type { ImportIssue, ImportProgress } from "../../history/types";

/** Savings of one group (a day, tool, upstream server or session), straight from the ledger. */
export type SavingsFigures = SavingsRow;

export interface StoreFigures {
  live: number;
  pinned: number;
  tombstoned: number;
  encrypted: number;
  usedBytes: number;
  capBytes: number;
  sessions: number;
  calls: number;
  lastCallAt: number | null;
}

export interface Overview {
  store: StoreFigures;
  total: SavingsFigures;
  byDay: SavingsFigures[];
  /** The last 48 UTC hours (oldest first), keys like `2026-03-14T09`. */
  byHour: SavingsFigures[];
  byTool: SavingsFigures[];
  byServer: SavingsFigures[];
  bySession: SavingsFigures[];
  /** What flowed tool to tool by `spill:` reference, never through the model's context. */
  byReference: ByReference;
  /** Calls that failed or answered with an error, and refused reads by sessions. */
  failures: { calls: number; reads: number };
  recent: LedgerEvent[];
  generatedAt: number;
}

export interface BlobDetail {
  meta: BlobRow;
  /** The handle the model was given when the result was rescued (in the producing session when it got one); null if never rescued. */
  handle: StoredHandle | null;
  /** Every handle given for it, one per session, latest first. */
  handles: StoredHandle[];
  lineage: Lineage;
  /** true when the content is shown masked unless revealed (credential-labelled blobs). */
  maskable: boolean;
  /** Why it carries its label (from the ledger); null when public or not recorded. */
  labelOrigin: LabelOrigin | null;
}

/** What set a label: the tool's configured floor, the call's arguments, or the result's own content. */
export type LabelSource = "tool" | "arguments" | "content";

export interface LabelOrigin {
  label: Label;
  /** The sources that gave this label, in the order the reasons name them. */
  sources: LabelSource[];
  /** The ledger's reasons for those sources ("arguments hold password assignment"). */
  reasons: string[];
  /** When the label was set (ms). */
  at: number;
}

/** A window of a blob's text, by lines (0-based, end exclusive) or by chars. */
export interface ContentPage {
  id: string;
  by: "lines" | "chars";
  start: number;
  end: number;
  /** Char offset in the blob where `text` starts. */
  startChar: number;
  /** 0-based line of the blob that the first line of `text` belongs to. */
  firstLine: number;
  text: string;
  totalLines: number;
  totalChars: number;
  masked: boolean;
  /** Lines of this page cut at the per-line cap (very long lines): 0-based line and full length. */
  cutLines: { line: number; chars: number }[];
}

/** A place in a blob an answer points at; the viewer jumps there. Columns are 0-based. */
export interface Jump {
  line: number;
  startCol?: number;
  endCol?: number;
  /** A view of the place; for long lines, a slice of it starting at column `textStart`. */
  text: string;
  textStart?: number;
}

export interface FetchRun {
  /** The answer exactly as the model would get it from rescuer_fetch. */
  text: string;
  truncated: boolean;
  isError: boolean;
  jumps: Jump[];
  tookMs: number;
}

export interface GlobalHit {
  blobId: string;
  startLine: number;
  endLine: number;
  snippet: string;
  score: number;
  tool: string;
  kind: Kind;
  label: Label;
  state: BlobState;
  sessionId: string;
  chars: number;
  createdAt: number;
}

export interface GlobalSearch {
  hits: GlobalHit[];
  tookMs: number;
  /** Live blobs not (yet) in the search index: too large, or still being indexed. */
  unindexed: number;
  /** Set when the words are so common that only the newest this many passages holding them were ranked. */
  narrowedTo: number | null;
}

export type * from "./dtoHost";

export type {
  ReplayReport,
  ReplaySessionReport,
  ReplayCallRow,
  ReplayRequestRow,
  ToolSavings,
  PolicyTotals,
  ReplayScope,
  ReplayPolicy,
  ReplayAction,
} from "../../replay/types";
export type { ImportIssue };

/** An agent whose history can be imported, as this machine has it. */
export interface HistoryAgentInfo {
  agent: HistoryAgent;
  name: string;
  /** Where the agent keeps its history here. */
  defaultPath: string;
  exists: boolean;
  importedSessions: number;
}

/** The inspector's import run (one at a time): its progress, then its outcome. */
export interface ImportJob extends ImportProgress {
  id: number;
  agent: HistoryAgent;
  path: string;
  state: "running" | "done" | "cancelled" | "failed";
  startedAt: number;
  endedAt: number | null;
  issueCount: number;
  issues: ImportIssue[];
  error: string | null;
}

/** Imported history at a glance, and what Spillway would have saved on it under the current config. */
export interface HistorySummary {
  sessions: number;
  calls: number;
  byAgent: { agent: string; sessions: number }[];
  /** Replay under the current config; null with nothing imported. */
  wouldSave: {
    requests: number;
    asHappened: number;
    promptTokens: number;
    saved: number;
    savedShare: number;
    handles: number;
    stubs: number;
    nearStubs: number;
  } | null;
}

/** A replay report rendered for download. */
export interface ReplayExport {
  filename: string;
  mime: string;
  text: string;
}
