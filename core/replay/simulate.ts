/**
 * What the model would have received for each call of one session under a policy: the same
 * decisions as the live interception path (core/engine/transform: rescue into a handle with the
 * real excerpt and its budget, exact repeats as stubs with the streak guard, near-duplicates of
 * the same call's last result as stubs with the changed lines, compaction delivering in full once
 * more), and each answer's tokens. Pure: no store is written.
 */
import { createHash } from "node:crypto";
import { decideDedup, renderStub, streakKey } from "../dedup/dedup";
import { echoedArgument, renderEchoStub } from "../dedup/echo";
import { nearDuplicateBase, renderNearStub } from "../dedup/nearDup";
import { buildExcerpt, excerptBudget } from "../rescue/excerpt";
import { renderHandle } from "../rescue/handle";
import { detectKind } from "../rescue/kind";
import type { TokenCounter } from "../savings/tokens";
import { maskSecrets } from "../sensitivity/secrets";
import { countLines } from "../text/lines";
import { isOwnToolAsHostNamed, type Label } from "../vocabulary";
import { ruleFor } from "./policy";
import type { ReplayAction, ReplayCallOutcome, ReplayPolicy } from "./types";

export type { ReplayAction, ReplayCallOutcome };

export interface ReplayCallInput {
  id: number;
  tool: string;
  argsJson: string | null;
  isError: boolean;
  /** The tool's whole result; null when its content is gone from the store. */
  result: string | null;
  label: Label;
  /** The blob id the result is stored under, when it is (handles name it). */
  blobId: string | null;
  /** What the model was given as it happened, in chars and tokens. */
  givenChars: number;
  givenTokens: number;
  /** This call's result came after this many compactions. */
  generation: number;
}

/** A stable 12-hex id for content not stored under a blob id (small results). */
const contentId = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 12);

function safeParse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

export function simulateSession(calls: ReplayCallInput[], policy: ReplayPolicy, tokens: TokenCounter): ReplayCallOutcome[] {
  const d = policy.dedup;
  const maxStubStreak = d.streakGuard ? d.maxStubStreak : Number.MAX_SAFE_INTEGER;
  const held = new Map<string, number>();
  const streaks = new Map<string, { blobId: string; count: number }>();
  /** Each key's last result, the base a near-duplicate is compared with. */
  const lastText = new Map<string, string>();
  const view = (c: ReplayCallInput, text: string) => (policy.mask && c.label === "credential" ? maskSecrets(text).text : text);
  const through = (c: ReplayCallInput, reason?: ReplayCallOutcome["reason"]): ReplayCallOutcome => ({
    action: "passthrough",
    chars: c.givenChars,
    tokens: c.givenTokens,
    ...(reason ? { reason } : {}),
  });
  const answer = (action: ReplayAction, text: string, reason?: ReplayCallOutcome["reason"]): ReplayCallOutcome => ({
    action,
    chars: text.length,
    tokens: tokens.count(text),
    text,
    ...(reason ? { reason } : {}),
  });
  /** The handle for a result; with no excerpt text, only its frame (for the near-duplicate bound). */
  const handleOf = (c: ReplayCallInput, id: string, text: string, excerptText: string | null) => {
    const { kind, shape } = detectKind(text);
    const excerpt =
      excerptText === null
        ? { text: "", truncated: true }
        : buildExcerpt(excerptText, kind, excerptBudget(excerptText.length, policy.excerpt));
    return renderHandle({ id, tool: c.tool, chars: text.length, lines: countLines(text), kind, shape, excerpt, ...policy.fetch });
  };

  return calls.map((c): ReplayCallOutcome => {
    if (c.result === null) return through(c, "content_gone");
    // Spillway's own answers (a recall, a fetch) in imported history: a live Spillway never rescues them.
    if (isOwnToolAsHostNamed(c.tool)) return through(c);
    const text = c.result;
    const chars = text.length;
    const rule = ruleFor(policy, c.tool);
    const rescue = rule.rescue && chars > rule.threshold;
    const dedup = rule.dedup && !c.isError && chars >= d.minChars && chars <= d.maxChars;
    if (!rescue && !dedup) return through(c);
    const id = c.blobId ?? contentId(text);
    let reason: ReplayCallOutcome["reason"];
    let near: string | null = null;
    let echoed: string | null = null;
    if (dedup) {
      const key = streakKey(c.tool, c.argsJson === null ? {} : safeParse(c.argsJson));
      const streak = streaks.get(key) ?? null;
      const decision = decideDedup({
        contentId: id,
        heldGeneration: held.get(id) ?? null,
        generation: c.generation,
        streak,
        maxStubStreak,
      });
      const stub = decision.action === "stub";
      streaks.set(key, { blobId: id, count: stub ? decision.nextCount : 0 });
      const baseText = lastText.get(key);
      lastText.set(key, text);
      if (stub) {
        const rescued = rescue ? { fullMaxChars: policy.fetch.fullMaxChars } : undefined;
        return answer("stub", view(c, renderStub({ tool: c.tool, id, chars, rescued })));
      }
      if (decision.reason !== "first") reason = decision.reason;
      const base =
        decision.reason === "first"
          ? nearDuplicateBase({
              enabled: d.nearDuplicates,
              contentId: id,
              streak,
              generation: c.generation,
              maxStubStreak,
              heldGeneration: (b) => held.get(b) ?? null,
            })
          : null;
      // As the live path: a result repeating its own call's argument is checked before near-duplicates.
      echoed = d.echoStubs && c.argsJson !== null ? echoedArgument(text, safeParse(c.argsJson)) : null;
      if (base && baseText !== undefined && echoed === null) {
        // No longer than the handle this result would get (as the live path bounds it).
        const maxChars = handleOf(c, id, text, null).length + excerptBudget(chars, policy.excerpt);
        near = renderNearStub({
          tool: c.tool,
          baseId: base.baseId,
          baseText: view(c, baseText),
          id,
          text: view(c, text),
          maxChangedShare: d.nearMaxChangedShare,
          maxChars,
        });
        if (near) streaks.set(key, { blobId: id, count: base.nextCount });
      }
    }
    held.set(id, c.generation);
    if (echoed !== null) return answer("stub", view(c, renderEchoStub({ tool: c.tool, argument: echoed, id, chars })));
    if (near) return answer("near_stub", near);
    if (!rescue) return through(c, reason);
    return answer("handle", handleOf(c, id, text, view(c, text)), reason);
  });
}
