/** The replay lab's shapes, as pure types (the inspector's contract reaches them). */
import type { HistoryCall, HistoryRequest } from "../store/read/readModel";

/** A per-tool rule of a policy. */
export interface ToolRule {
  /** false: never rescued. */
  rescue?: boolean | undefined;
  thresholdChars?: number | undefined;
  /** false: never stubbed. */
  dedup?: boolean | undefined;
}

/** A policy with every value decided. */
export interface ReplayPolicy {
  name: string;
  rescue: {
    enabled: boolean;
    thresholdChars: number;
    excludeTools: string[];
    includeTools: string[];
    toolThresholds: Record<string, number>;
  };
  /** The excerpt's cap, and its budget within the cap: a share of the result, at least minChars. */
  excerpt: { maxChars: number; minChars: number; share: number };
  /** The caps a handle's footer names (from the config). */
  fetch: { maxChars: number; fullMaxChars: number };
  dedup: {
    enabled: boolean;
    minChars: number;
    maxChars: number;
    maxStubStreak: number;
    /** Off: a repeat is stubbed however many times in a row. */
    streakGuard: boolean;
    nearDuplicates: boolean;
    nearMaxChangedShare: number;
    /** A result equal, as JSON, to an argument of its own call becomes a one-line stub. */
    echoStubs: boolean;
  };
  tools: Record<string, ToolRule>;
  /** Masking of credentials in what the model is given (from the config). */
  mask: boolean;
}

/** What the model would have got for a call. */
export type ReplayAction = "passthrough" | "handle" | "stub" | "near_stub";

export interface ReplayCallOutcome {
  action: ReplayAction;
  /** Why a held result was delivered in full anyway, or why nothing could be done. */
  reason?: "streak_guard" | "new_generation" | "content_gone";
  chars: number;
  tokens: number;
  /** The text the model would have been given (handles, stubs); absent for pass-through. */
  text?: string;
}

export interface SessionInput {
  id: string;
  agent: string;
  project: string | null;
  model: string | null;
  title: string | null;
  requests: HistoryRequest[];
  calls: HistoryCall[];
  /** As it happened: the tokens each call's result cost in a request. */
  asHappened: number[];
  /** Per policy, per call. */
  outcomes: ReplayCallOutcome[][];
}

export interface ReplayRequestRow {
  seq: number;
  ts: number;
  asHappened: number;
  /** Per policy, in the order of the report's policies. */
  policies: number[];
}

export interface ReplayCallRow {
  id: number;
  ts: number;
  tool: string;
  requestSeq: number | null;
  /** Requests that carried this result. */
  carried: number;
  resultChars: number;
  hostCut: string | null;
  asHappenedTokens: number;
  policies: { action: ReplayAction; tokens: number; reason?: string; text?: string }[];
}

export interface ReplaySessionReport {
  id: string;
  agent: string;
  project: string | null;
  model: string | null;
  title: string | null;
  requests: ReplayRequestRow[];
  calls: ReplayCallRow[];
  promptTokens: { asHappened: number; policies: number[] };
}

export interface ToolSavings {
  tool: string;
  calls: number;
  /** Prompt tokens this tool's results cost as it happened (each result times the requests that carried it). */
  asHappened: number;
  policies: { billed: number; saved: number; handles: number; stubs: number; nearStubs: number }[];
}

export interface ReplayScope {
  sessionId?: string | undefined;
  agent?: string | undefined;
  project?: string | undefined;
}

export interface PolicyTotals {
  name: string;
  promptTokens: number;
  /** As it happened minus this policy. */
  saved: number;
  savedShare: number;
  handles: number;
  stubs: number;
  nearStubs: number;
  passthrough: number;
}

export interface ReplayReport {
  scope: ReplayScope;
  tokenizer: string;
  policies: ReplayPolicy[];
  totals: {
    sessions: number;
    requests: number;
    calls: number;
    /** Calls whose content the store no longer has (counted as they happened). */
    contentGone: number;
    asHappened: number;
    policies: PolicyTotals[];
  };
  tools: ToolSavings[];
  sessions: ReplaySessionReport[];
}
