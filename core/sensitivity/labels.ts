/**
 * Sensitivity labels (`public < internal < personal < credential`) from three sources: the
 * per-tool map in the config, the call's arguments and the result content. The highest wins,
 * and every source that raised the label says why in `reasons` (shown in the inspector).
 */
import { matchesToolPattern } from "../config/config";
import { LABELS, maxLabel, type Label } from "../vocabulary";
import { scanPersonal, scanPersonalAsync, type PersonalSignals } from "./personal";
import { findSecrets, type SecretFinding } from "./secrets";

/** Distinct e-mails plus phones at which a text counts as personal data (one is a signature, three a list). */
const PERSONAL_CONTACTS = 3;

export { maxLabel };

/**
 * Label of a result's text: credential when a secret is found, personal on personal data, else
 * public. `secrets`: the text's findings when the caller scanned it already (one scan, not two).
 */
export function labelContent(
  text: string,
  secrets: readonly SecretFinding[] = findSecrets(text),
  utf8?: Buffer,
): { label: Label; reasons: string[] } {
  if (secrets.length > 0) return { label: "credential", reasons: [`content holds ${describeSecrets(secrets)}`] };
  return personalData(text, utf8) ?? { label: "public", reasons: [] };
}

/** The personal label and why, when `text` holds personal data; null when it does not. */
export function personalData(text: string, utf8?: Buffer): { label: "personal"; reasons: string[] } | null {
  return personalLabel(scanPersonal(text, utf8));
}

/** `personalData`, scanning a long text a window at a time with yields between (scanPersonalAsync): for background work. */
export async function personalDataAsync(text: string): Promise<{ label: "personal"; reasons: string[] } | null> {
  return personalLabel(await scanPersonalAsync(text));
}

function personalLabel(p: PersonalSignals): { label: "personal"; reasons: string[] } | null {
  const strong: string[] = [];
  if (p.iban) strong.push(plural(p.iban, "IBAN"));
  if (p.ssn) strong.push(plural(p.ssn, "SSN-like number"));
  if (p.card) strong.push(plural(p.card, "payment card number"));
  const contacts = p.emails + p.phones;
  if (strong.length === 0 && contacts < PERSONAL_CONTACTS) return null;
  if (p.emails) strong.push(plural(p.emails, "e-mail address", "e-mail addresses"));
  if (p.phones) strong.push(plural(p.phones, "phone number"));
  return { label: "personal", reasons: [`content holds personal data: ${strong.join(", ")}`] };
}

/** Label of a call's arguments: credential when they carry a secret (a key pasted into a query…). */
export function labelArguments(args: unknown): { label: Label; reasons: string[] } {
  const text = argumentsText(args);
  const secrets = findSecrets(text);
  if (secrets.length === 0) return { label: "public", reasons: [] };
  return { label: "credential", reasons: [`arguments hold ${describeSecrets(secrets)}`] };
}

/** The configured label floor for `tool`: the highest of every matching pattern, or null. */
export function labelForTool(tool: string, toolLabels: Record<string, Label>): Label | null {
  let best: Label | null = null;
  for (const [pattern, label] of Object.entries(toolLabels ?? {})) {
    if (!LABELS.includes(label) || !matchesToolPattern(pattern, tool)) continue;
    best = best ? maxLabel(best, label) : label;
  }
  return best;
}

/** The highest of the tool's configured floor, the arguments' label and the content's label. */
export function labelResult(input: {
  tool: string;
  args: unknown;
  content: string;
  toolLabels: Record<string, Label>;
  /** The content's findings, when already scanned. */
  contentFindings?: readonly SecretFinding[];
  /** The content's UTF-8 bytes, when at hand: an ASCII text is then scanned without RE2 converting it again. */
  contentUtf8?: Buffer;
  /** False: the content is not scanned for personal data (the caller does it later, see personalData). */
  personal?: boolean;
}): { label: Label; reasons: string[] } {
  let label: Label = "public";
  const reasons: string[] = [];
  const floor = labelForTool(input.tool, input.toolLabels);
  if (floor) {
    label = floor;
    if (floor !== "public") reasons.push(`tool ${input.tool} is configured as ${floor}`);
  }
  const secrets = input.contentFindings ?? findSecrets(input.content);
  const content =
    input.personal === false && secrets.length === 0
      ? { label: "public" as const, reasons: [] }
      : labelContent(input.content, secrets, input.contentUtf8);
  for (const part of [labelArguments(input.args), content]) {
    label = maxLabel(label, part.label);
    reasons.push(...part.reasons);
  }
  return { label, reasons };
}

/**
 * Arguments as one text. JSON keeps the key next to its value, so `{"password": "x"}` is seen
 * as an assignment; values JSON cannot encode (BigInt, cycles) fall back to the string leaves.
 */
function argumentsText(args: unknown): string {
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args) ?? "";
  } catch {
    const leaves: string[] = [];
    const stack: unknown[] = [args];
    const seen = new Set<object>();
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v === "string") leaves.push(v);
      else if (v && typeof v === "object" && !seen.has(v)) {
        seen.add(v);
        for (const [k, child] of Object.entries(v)) {
          if (typeof child === "string") leaves.push(`${k}: ${JSON.stringify(child)}`);
          else stack.push(child);
        }
      }
    }
    return leaves.join("\n");
  }
}

function describeSecrets(findings: readonly SecretFinding[]): string {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.type, (counts.get(f.type) ?? 0) + 1);
  return [...counts].map(([type, n]) => (n > 1 ? `${type} (${n})` : type)).join(", ");
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
