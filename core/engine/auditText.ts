/**
 * How the audit trail keeps texts it did not store as blobs: JSON-RPC messages and notes. Every
 * string is masked (nothing credential-shaped is stored in plaintext), and long strings are cut,
 * since the whole content of a large result is the blob already.
 */
import { maskSecrets } from "../sensitivity/secrets";

/** Strings longer than this are cut in a kept upstream message (the whole result is the blob). */
export const RPC_STRING_MAX_CHARS = 2_000;
/** What the model was given is kept up to this per string (any handle fits whole). */
export const RPC_GIVEN_STRING_MAX_CHARS = 16_000;
/** A kept message is cut to this size in all (a result with hundreds of items). */
export const RPC_MESSAGE_MAX_CHARS = 256 * 1024;

/**
 * How far past the cut a long text is masked with the part kept: more than any secret spans (a
 * private key's armour, at most 64 K chars in pem.ts).
 */
const MASK_MARGIN = 64 * 1024;

/**
 * Masked text, cut at `max` chars with a marker that says how much is missing. Only the part
 * kept and a margin past it are masked: masking all of a 25 MB upstream message to keep 2,000
 * chars of it held the call's answer for about 100 ms a copy. A text that names a `Secret` past
 * the cut is masked whole: a Kubernetes Secret's `kind` comes after its `data`, however long.
 */
export function keptText(text: string, max = Number.POSITIVE_INFINITY): string {
  const head = text.length > max + MASK_MARGIN && !text.includes("Secret", max) ? text.slice(0, max + MASK_MARGIN) : text;
  const masked = maskSecrets(head).text;
  const missing = masked.length - Math.min(max, masked.length) + (text.length - head.length);
  if (missing === 0) return masked;
  return `${masked.slice(0, max)}… [${missing.toLocaleString("en-US")} more chars]`;
}

function cutValue(v: unknown, depth: number, max: number): unknown {
  if (typeof v === "string") return keptText(v, max);
  if (v === null || typeof v !== "object") return v;
  if (depth > 50) return "[nested too deep]";
  if (Array.isArray(v)) return v.map((x) => cutValue(x, depth + 1, max));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = typeof x === "string" ? keptNamed(k, x, max) : cutValue(x, depth + 1, max);
  return out;
}

/** Longest value, and key, read together as `"key": "value"`: a secret named by its key is short. */
const NAMED_VALUE_MAX_CHARS = 4_096;
const NAMED_KEY_MAX_CHARS = 100;
/** Words every key-named secret the masker knows contains (a quick test before the masker runs). */
const SECRET_KEY_HINT = /pass|pwd|secret|token|key|auth|cred|cookie|session|sig|private|bearer|cert|dsn|conn/i;

/**
 * A string value kept with its key in view: `{"password": "hunter2"}` or `{"api_key": "…"}` holds a
 * secret the value alone does not show, so a short value is masked as `"key": "value"` reads, the
 * way a call's arguments are (their JSON is masked whole).
 */
function keptNamed(key: string, value: string, max: number): string {
  const kept = keptText(value, max);
  if (kept.length > NAMED_VALUE_MAX_CHARS || key.length > NAMED_KEY_MAX_CHARS || !SECRET_KEY_HINT.test(key)) return kept;
  const pair = JSON.stringify({ [key]: kept });
  const masked = maskSecrets(pair).text;
  if (masked === pair) return kept;
  try {
    const back = (JSON.parse(masked) as Record<string, unknown>)[key];
    return typeof back === "string" ? back : kept;
  } catch {
    return kept;
  }
}

/** A JSON-RPC message (or any JSON value) as the audit trail keeps it: masked, strings over `maxString` cut, pretty-printed. */
export function keptJson(value: unknown, maxString = RPC_STRING_MAX_CHARS): string | null {
  if (value === undefined) return null;
  const json = JSON.stringify(cutValue(value, 0, maxString), null, 2) ?? "null";
  return json.length <= RPC_MESSAGE_MAX_CHARS
    ? json
    : `${json.slice(0, RPC_MESSAGE_MAX_CHARS)}\n… [${(json.length - RPC_MESSAGE_MAX_CHARS).toLocaleString("en-US")} more chars]`;
}
