/** Words for why a blob carries its label (see core/inspector/handlers/labelOrigin.ts). */
import type { LabelOrigin, LabelSource } from "../../../../core/inspector/api/contract";

const FROM: Record<LabelSource, string> = {
  arguments: "the call's arguments",
  content: "the result's content",
  tool: "the tool's configured label",
};

/** "from the call's arguments (arguments hold password assignment)"; empty when the ledger gave no reason. */
export function labelFromText(o: LabelOrigin): string {
  const from = o.sources.map((s) => FROM[s]).join(" and ");
  const why = o.reasons.length ? ` (${o.reasons.join("; ")})` : "";
  return from ? `from ${from}${why}` : why.trim();
}

/** Whether the result's own text gave the label: if not, masking it hides nothing. */
export function labelledByContent(o: LabelOrigin | null): boolean {
  return o === null || o.sources.includes("content") || o.sources.length === 0;
}
