/**
 * What the model would have received for each call of one session under a policy: the same
 * decisions as the live interception path (rescue into a handle with the real excerpt, exact
 * repeats as stubs with the streak guard, compaction delivering in full once more), plus
 * near-duplicate stubs, and each answer's tokens. Pure: no store is written.
 */
import { createHash } from "node:crypto";
import { decideDedup, renderStub, streakKey } from "../dedup/dedup";
import { nearDuplicate, renderNearStub } from "../dedup/nearDup";
import { buildExcerpt } from "../rescue/excerpt";
import { renderHandle } from "../rescue/handle";
import { detectKind } from "../rescue/kind";
import type { TokenCounter } from "../savings/tokens";
import { maskSecrets } from "../sensitivity/secrets";
import { countLines } from "../text/lines";
import { isOwnToolName, type Label } from "../vocabulary";
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
  /** This call's result came after a compaction (a new generation). */
  generation: number;
}

/** A stable 12-hex id for content not stored under a blob id (small results). */
const contentId = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 12);

/** Earlier results kept per session for near-duplicate checks. */
const NEAR_WINDOW = 16;

export function simulateSession(calls: ReplayCallInput[], policy: ReplayPolicy, tokens: TokenCounter): ReplayCallOutcome[] {
  const held = new Map<string, number>();
  const streaks = new Map<string, { blobId: string; count: number }>();
  const recent: { id: string; text: string; tool: string }[] = [];
  const through = (c: ReplayCallInput, reason?: ReplayCallOutcome["reason"]): ReplayCallOutcome => ({
    action: "passthrough", chars: c.givenChars, tokens: c.givenTokens, ...(reason ? { reason } : {}),
  });
  const answer = (action: ReplayAction, text: string, reason?: ReplayCallOutcome["reason"]): ReplayCallOutcome => ({
    action, chars: text.length, tokens: tokens.count(text), text, ...(reason ? { reason } : {}),
  });

  return calls.map((c): ReplayCallOutcome => {
    if (c.result === null) return through(c, "content_gone");
    if (isOwnToolName(c.tool)) return through(c);
    const text = c.result;
    const chars = text.length;
    const rule = ruleFor(policy, c.tool);
    const rescue = rule.rescue && chars > rule.threshold;
    const d = policy.dedup;
    const dedup = rule.dedup && !c.isError && chars >= d.minChars && chars <= d.maxChars;
    if (!rescue && !dedup) return through(c);
    const id = c.blobId ?? contentId(text);
    let reason: ReplayCallOutcome["reason"];
    if (dedup) {
      const key = streakKey(c.tool, c.argsJson === null ? {} : safeParse(c.argsJson));
      const decision = decideDedup({
        contentId: id,
        heldGeneration: held.get(id) ?? null,
        generation: c.generation,
        streak: streaks.get(key) ?? null,
        maxStubStreak: d.streakGuard ? d.maxStubStreak : Number.MAX_SAFE_INTEGER,
      });
      streaks.set(key, { blobId: id, count: decision.nextCount });
      if (decision.action === "stub") return answer("stub", renderStub({ tool: c.tool, id, chars }));
      if (decision.reason !== "first") reason = decision.reason;
      held.set(id, c.generation);
      if (decision.reason === "first" && d.nearDuplicates.enabled) {
        const near = nearStub(c, text, id, recent, d.nearDuplicates);
        remember(recent, { id, text, tool: c.tool });
        if (near !== null && (!rescue || near.length < chars)) return answer("near_stub", near);
      } else remember(recent, { id, text, tool: c.tool });
    }
    if (!rescue) return through(c, reason);
    const view = policy.mask && c.label === "credential" ? maskSecrets(text).text : text;
    const { kind, shape } = detectKind(view);
    const excerpt = buildExcerpt(view, kind, policy.excerpt.maxChars);
    return answer("handle", renderHandle({ id, tool: c.tool, chars, lines: countLines(text), kind, shape, excerpt }), reason);
  });
}

function remember(recent: { id: string; text: string; tool: string }[], r: { id: string; text: string; tool: string }): void {
  recent.push(r);
  if (recent.length > NEAR_WINDOW) recent.shift();
}

/** A near-duplicate stub against the latest earlier result of the same tool that this one nearly repeats. */
function nearStub(c: ReplayCallInput, text: string, id: string, recent: { id: string; text: string; tool: string }[], o: ReplayPolicy["dedup"]["nearDuplicates"]): string | null {
  for (let i = recent.length - 1; i >= 0; i--) {
    const prev = recent[i]!;
    if (prev.tool !== c.tool || prev.id === id) continue;
    const diff = nearDuplicate(prev.text, text, o.maxChangedShare, o.minLines);
    if (diff) return renderNearStub({ tool: c.tool, id, earlierId: prev.id, chars: text.length, diff });
  }
  return null;
}

function safeParse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

