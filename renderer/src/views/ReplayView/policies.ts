/** Policy presets for the replay lab and the parsing of a policy typed by hand. Pure. */

export interface Preset {
  id: string;
  label: string;
  policy: Record<string, unknown>;
}

export const PRESETS: Preset[] = [
  { id: "current", label: "Current config", policy: { name: "current config" } },
  { id: "no-dedup", label: "No dedup stubs", policy: { name: "no dedup", dedup: { enabled: false } } },
  { id: "no-near", label: "Exact stubs only", policy: { name: "exact stubs only", dedup: { nearDuplicates: false } } },
  {
    id: "tight",
    label: "Threshold 4,000, excerpt 2,000",
    policy: { name: "threshold 4k", rescue: { thresholdChars: 4_000 }, excerpt: { maxChars: 2_000 } },
  },
  { id: "no-guard", label: "No streak guard", policy: { name: "no streak guard", dedup: { streakGuard: false } } },
];

/** The policy object typed in the editor, or why it is not one. */
export function parsePolicyText(text: string): { policy: Record<string, unknown> } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { error: `not JSON: ${(err as Error).message}` };
  }
  if (!v || typeof v !== "object" || Array.isArray(v))
    return { error: 'a policy is a JSON object, e.g. {"rescue": {"thresholdChars": 8000}}' };
  return { policy: v as Record<string, unknown> };
}

export const policyText = (p: Record<string, unknown>) => JSON.stringify(p, null, 2);
