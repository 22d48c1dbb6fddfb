/**
 * Token counts of calls and reads, always after the answer went out: small texts in batches (one
 * transaction a batch), big ones each in its own task, exact up to a size and estimated from a
 * sample above it.
 */
import type { TokenCounter } from "../savings/tokens";
import type { BlobStore } from "../store/blobStore";
import type { Ledger } from "../store/ledger";
import type { EngineParts } from "./parts";
import type { TaskQueue } from "./taskQueue";

/** Texts up to this size are counted in batches. */
const SMALL_CHARS = 16_384;

export function tokenCounts(
  queue: TaskQueue,
  store: BlobStore,
  ledger: Ledger,
  tokens: TokenCounter,
): Pick<EngineParts, "countCallTokens" | "countReadTokens"> {
  /** Small token counts waiting for their batch: a call's two texts, or a read's answer. */
  const smallCounts: ({ callId: number; returned: string; given: string } | { eventId: number; text: string })[] = [];
  const charsOf = (c: (typeof smallCounts)[number]) => ("eventId" in c ? c.text.length : c.returned.length + c.given.length);
  /** Queues one small count; the first of a batch queues the task that counts them all, in one transaction. */
  const countSmall = (c: (typeof smallCounts)[number]) => {
    smallCounts.push(c);
    queue.charge(charsOf(c));
    if (smallCounts.length > 1) return;
    // Taken once and kept, so a retry after a busy lock writes the same batch.
    let batch: typeof smallCounts | null = null;
    queue.push(() => {
      if (batch === null) {
        batch = smallCounts.splice(0);
        queue.release(batch.reduce((n, c) => n + charsOf(c), 0));
      }
      if (!store.open) return;
      const counted = batch.map((c): (() => void) => {
        if ("eventId" in c) {
          const n = tokens.count(c.text);
          return () => ledger.setEventTokens(c.eventId, n);
        }
        const r = tokens.count(c.returned);
        const g = c.given === c.returned ? r : tokens.count(c.given);
        return () => ledger.setCallTokens(c.callId, r, g);
      });
      // IMMEDIATE: a deferred write transaction can fail at once on a lock another process took.
      store.transaction(() => {
        for (const write of counted) write();
      }, "immediate");
    });
  };

  return {
    countCallTokens(callId, returned, given) {
      // Always off the hot path: the agent's call returns before any token is counted. Small
      // calls are counted in batches, one transaction per batch.
      if (returned.length <= SMALL_CHARS && given.length <= SMALL_CHARS) {
        countSmall({ callId, returned, given });
        return;
      }
      queue.push(
        async () => {
          // Exact up to a size, estimated from a sample above it: a 50 MB result once cost 81 s of CPU.
          const r = await tokens.measure(returned);
          const g = given === returned ? r : await tokens.measure(given);
          if (store.open) ledger.setCallTokens(callId, r.tokens, g.tokens, r.estimated || g.estimated);
        },
        returned.length + (given === returned ? 0 : given.length),
      );
    },
    countReadTokens(eventId, text) {
      if (text.length <= SMALL_CHARS) {
        countSmall({ eventId, text });
        return;
      }
      queue.push(async () => {
        // Exact for any answer under the default caps (fetch.fullMaxChars, 50,000 chars). Only a cap
        // raised past EXACT_TOKEN_MAX_CHARS gets a sampled estimate here, which read events do not mark.
        const n = await tokens.measure(text);
        if (store.open) ledger.setEventTokens(eventId, n.tokens);
      }, text.length);
    },
  };
}
