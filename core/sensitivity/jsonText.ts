/** JSON text as it may be stored: the call rows' arguments and the ledger's event data. */
import { maskJsonValue } from "./maskJson";
import { maskSecrets } from "./secrets";

/**
 * JSON text with its secrets masked, still valid JSON. Masking the text sees keys next to their
 * values; where a marker broke an escape (`"pw=abc\"…"`), the strings are masked one by one.
 */
export function maskJsonText(json: string): string {
  const masked = maskSecrets(json).text;
  if (masked === json) return json;
  try {
    JSON.parse(masked);
    return masked;
  } catch {
    try {
      return JSON.stringify(maskJsonValue(JSON.parse(json) as unknown, (t) => maskSecrets(t).text));
    } catch {
      return masked; // not JSON to begin with: masked text it is
    }
  }
}
