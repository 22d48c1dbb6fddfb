/** The interception path for tool results: rescue, dedup, ledger. Any failure fails open to the raw result. */
import { isDamagedIndex } from "../store/rebuildIndex";
import { matchesToolPattern, type SpillwayConfig } from "../config/config";
import { canonicalJson, decideDedup, renderStub, streakKey } from "../dedup/dedup";
import { echoedArgument, renderEchoStub } from "../dedup/echo";
import { nearDuplicateBase, type NearBase } from "../dedup/nearDup";
import { buildExcerpt, excerptBudget } from "../rescue/excerpt";
import { renderHandle } from "../rescue/handle";
import { detectKindScanned } from "../rescue/kind";
import { labelResult } from "../sensitivity/labels";
import { findSecrets, type SecretFinding } from "../sensitivity/secrets";
import { describeError } from "../errors";
import { countLines } from "../text/lines";
import type { Outcome } from "../types";
import { nearDuplicateStub } from "./nearStub";
import type { EngineParts } from "./parts";
import { maxLabel, OWN_TOOL_NAMES } from "../vocabulary";

/** Spillway's own model-facing tools; their answers are never rescued or stubbed. */
export const OWN_TOOLS: ReadonlySet<string> = new Set(OWN_TOOL_NAMES);

export interface TransformInput {
  sessionId: string;
  tool: string;
  server?: string | null;
  args?: unknown;
  /** The result's text (for MCP, the text content items joined). */
  text: string;
  isError?: boolean;
  /**
   * false: the model cannot reach Spillway's tools (a hook's session with no Spillway MCP server
   * serving it), so nothing is replaced by a handle or a stub; secrets are masked as ever.
   */
  handles?: boolean;
}

/** The reason a result that would have been rescued was delivered whole. */
export const NO_TOOLS_REASON = "no_spillway_tools";

export interface TransformResult {
  /** What the model is given. */
  text: string;
  outcome: Outcome;
  blobId: string | null;
  callId: number | null;
  /** Why it was delivered in full although held (dedup), when that applies. */
  reason?: string;
  /** A pass-through whose text was masked: the caller delivers `text`, not the result as it came. */
  masked?: boolean;
}

/** Results at most this long are kept in the ledger as text when not stored as a blob. */
const SMALL_TEXT = 4_000;

export function transformToolResult(p: EngineParts, input: TransformInput): TransformResult {
  try {
    // One IMMEDIATE transaction: the call's few index writes commit together (a fraction of the
    // cost of separate commits), and a second process waits for the lock instead of failing.
    return p.store.transact(() => transformUnsafe(p, input));
  } catch (err) {
    p.logger.error("transform failed; delivering the raw result", {
      tool: input.tool,
      session: input.sessionId,
      error: describeError(err),
      // Every call fails open until then: say the way out where the user will look.
      ...(isDamagedIndex(err) ? { fix: "the index is damaged: run spillway doctor --repair (stop other Spillway processes first)" } : {}),
    });
    return { ...failOpenText(p, input), outcome: "failed_open", blobId: null, callId: null };
  }
}

/** The raw result, still through the model's exit when masking works; the exact text when it fails too. */
function failOpenText(p: EngineParts, input: TransformInput): { text: string; masked: boolean } {
  try {
    const text = p.views.modelView(input.text, input.tool);
    return { text, masked: text !== input.text };
  } catch {
    return { text: input.text, masked: false };
  }
}

function toolRule(cfg: SpillwayConfig["rescue"], tool: string): { rescue: boolean; threshold: number } {
  const excluded = cfg.excludeTools.some((p) => matchesToolPattern(p, tool));
  const included = cfg.includeTools.length === 0 || cfg.includeTools.some((p) => matchesToolPattern(p, tool));
  const own = Object.entries(cfg.toolThresholds).find(([p]) => matchesToolPattern(p, tool));
  return { rescue: !excluded && included, threshold: own ? own[1] : cfg.thresholdChars };
}

function transformUnsafe(p: EngineParts, input: TransformInput): TransformResult {
  const { config: cfg, store, sessions, ledger, views } = p;
  const now = store.now;
  const text = input.text;
  const chars = text.length;
  // Touched once the file of a new result is on its way to the disk (below), or on the way out.
  let touched: ReturnType<typeof sessions.touch> | undefined;
  const touch = () => (touched ??= sessions.touch(input.sessionId, now));
  const server = input.server ?? null;
  // The ledger stores these masked (storedView); the exact bytes live only in the blob.
  const argsJson = input.args === undefined ? null : canonicalJson(input.args);
  // One scan of the result serves its label, the model's view and the masked blob view.
  let scanned: SecretFinding[] | undefined;
  // The UTF-8 bytes once the store encoded them: the scans then skip RE2's own conversion.
  let utf8: Buffer | undefined;
  const findings = () => (scanned ??= findSecrets(text, utf8));
  const record = (outcome: Outcome, given: string, blobId: string | null, reason?: string): TransformResult => {
    touch();
    const callId = ledger.insertCall({
      sessionId: input.sessionId,
      ts: now,
      tool: input.tool,
      server,
      argsJson,
      outcome,
      blobId,
      isError: input.isError === true,
      returnedChars: chars,
      givenChars: given.length,
      rawText: blobId === null && chars <= SMALL_TEXT ? text : null,
      // A pass-through's given text is the result's own view, derivable from the raw text or the blob.
      givenText: outcome === "passthrough" ? null : given,
    });
    ledger.insertEvent({
      ts: now,
      type: outcome === "rescued" ? "rescue" : outcome === "stubbed" ? "stub" : "passthrough",
      sessionId: input.sessionId,
      blobId,
      callId,
      tool: input.tool,
      server,
      chars: given.length,
      data: reason ? { reason, returned: chars } : { returned: chars },
    });
    p.countCallTokens(callId, text, given);
    p.emit({ type: "call", sessionId: input.sessionId, callId, outcome, blobId });
    return { text: given, outcome, blobId, callId, reason, ...(outcome === "passthrough" && given !== text ? { masked: true } : {}) };
  };

  // Own tools' answers left through the model's exit already (fetchService).
  if (OWN_TOOLS.has(input.tool)) {
    touch();
    return { text, outcome: "passthrough", blobId: null, callId: null };
  }
  const masks = views.masksFor(input.tool);
  const rule = toolRule(cfg.rescue, input.tool);
  const handles = input.handles !== false;
  const rescue = handles && rule.rescue && chars > rule.threshold;
  // Without the tools a stub is as unreadable as a handle: the result is still stored, for the audit.
  const dedup = handles && !input.isError && chars >= cfg.dedup.minChars && chars <= cfg.dedup.maxChars;
  const unreached = !handles && rule.rescue && chars > rule.threshold ? NO_TOOLS_REASON : undefined;
  if (!rescue && !dedup && !unreached) return record("passthrough", masks ? views.modelView(text, input.tool, findings()) : text, null);

  // Encoded once: the slices feed the id here and, when the result is stored, the checksums and the file.
  const prepared = store.prepareText(text, true);
  if (prepared.encoding === "utf8") utf8 = prepared.encoded;
  const contentId = prepared.id;
  let labelled: ReturnType<typeof labelResult> | undefined;
  const label = () =>
    (labelled ??= labelResult({
      tool: input.tool,
      args: input.args ?? {},
      content: text,
      toolLabels: cfg.sensitivity.toolLabels,
      contentFindings: findings(),
      contentUtf8: utf8,
      // Personal data only names the label (nothing is masked or sealed for it): looked for below, off the hot path.
      personal: false,
    }));
  // A result the store has no live copy of is stored on every path below: its file is written
  // first (after the secret scan that decides whether it is sealed), so the disk flushes it
  // while the dedup decision, the description, the excerpt and the ledger rows are worked out.
  store.writeAhead(prepared, () => label().label);
  const session = touch();
  let reason: string | undefined = unreached;
  let near: (NearBase & { key: string }) | null = null;
  if (dedup) {
    // Hashed with the store's key: the streak table must not hold the arguments (a password) in clear.
    const key = store.idFor(streakKey(input.tool, input.args));
    const streak = sessions.streak(input.sessionId, key);
    const decision = decideDedup({
      contentId,
      heldGeneration: sessions.heldGeneration(input.sessionId, contentId),
      generation: session.generation,
      streak,
      maxStubStreak: cfg.dedup.maxStubStreak,
    });
    // A stub points at the stored copy: only an intact one (a damaged or undecryptable copy is
    // replaced below from this very result, which is delivered as if it were the first).
    const stub = decision.action === "stub" && store.intact(contentId);
    sessions.setStreak(input.sessionId, key, contentId, stub ? decision.nextCount : 0);
    if (stub) {
      sessions.recordHeld(input.sessionId, contentId, session.generation, now);
      // Worded for how the session got it before (whole, when no client held handles then), else as it would get it now.
      const before = ledger.lastDelivery(input.sessionId, contentId);
      const rescued = (before === null ? rescue : before === "rescued") ? { fullMaxChars: cfg.fetch.fullMaxChars } : undefined;
      return record("stubbed", views.modelView(renderStub({ tool: input.tool, id: contentId, chars, rescued }), input.tool), contentId);
    }
    if (decision.action === "deliver" && decision.reason !== "first") reason = decision.reason;
    const base =
      decision.action === "deliver" && decision.reason === "first"
        ? nearDuplicateBase({
            enabled: cfg.dedup.nearDuplicates,
            contentId,
            streak,
            generation: session.generation,
            maxStubStreak: cfg.dedup.maxStubStreak,
            heldGeneration: (id) => sessions.heldGeneration(input.sessionId, id),
          })
        : null;
    near = base && { ...base, key };
  }

  // Worked out while the store writes the file, whose flush then runs meanwhile (BlobStore.put).
  let described: (ReturnType<typeof detectKindScanned> & { lines: number }) | undefined;
  const describe = () => (described ??= { ...detectKindScanned(text, utf8), lines: countLines(text) });
  const { label: resultLabel, reasons } = label();
  // The label the row had before this put (null: no row, live or tombstoned), read by the put itself.
  const { meta, repaired, created, previousLabel } = store.put(
    text,
    { tool: input.tool, server, sessionId: input.sessionId, label: resultLabel, describe },
    prepared,
  );
  const { kind, shape, scan, lines } = describe();
  if (repaired) {
    p.logger.warn("stored copy was unreadable; stored this result afresh", { id: meta.id, tool: input.tool, problem: repaired });
    reason ??= `stored copy was ${repaired}`;
  }
  if (previousLabel !== null && previousLabel !== meta.label) {
    ledger.insertEvent({
      ts: now,
      type: "label",
      blobId: meta.id,
      sessionId: input.sessionId,
      tool: input.tool,
      data: { from: previousLabel, to: meta.label, reasons },
    });
  } else if (previousLabel === null && meta.label !== "public") {
    ledger.insertEvent({
      ts: now,
      type: "label",
      blobId: meta.id,
      sessionId: input.sessionId,
      tool: input.tool,
      data: { to: meta.label, reasons },
    });
  }
  // Once per stored content: a repeat finds what the first store of it found.
  if (created && maxLabel(meta.label, "personal") !== meta.label)
    p.schedulePersonalLabel({ id: meta.id, text, sessionId: input.sessionId, tool: input.tool });
  sessions.recordHeld(input.sessionId, meta.id, session.generation, now);
  // The masked view is cached now, so indexing and the first fetch do not scan the text again.
  const masked = views.maskedBlob(meta.id, text, findings());
  p.scheduleIndex(meta.id, text);
  // A result that repeats an argument of this very call: the model wrote it, so it has it.
  const echoed = dedup && cfg.dedup.echoStubs ? echoedArgument(text, input.args) : null;
  if (echoed !== null) {
    const stub = renderEchoStub({ tool: input.tool, argument: echoed, id: meta.id, chars });
    return record("stubbed", views.modelView(stub, input.tool), meta.id, "echo");
  }
  const nearStub = near && nearDuplicateStub(p, input.tool, near, meta, text);
  if (near && nearStub) {
    sessions.setStreak(input.sessionId, near.key, meta.id, near.nextCount);
    return record("stubbed", views.modelView(nearStub, input.tool), meta.id, "near_duplicate");
  }
  const view = masks ? masked : text;
  if (!rescue) return record("passthrough", view, meta.id, reason);

  // The kind detection's scan serves the excerpt when the view is the text itself (nothing masked).
  const excerpt = buildExcerpt(view, kind, excerptBudget(view.length, cfg.excerpt), view === text ? scan : undefined);
  const handle = renderHandle({ id: meta.id, tool: input.tool, chars, lines, kind, shape, excerpt, ...cfg.fetch });
  return record("rescued", views.modelView(handle, input.tool), meta.id, reason);
}
