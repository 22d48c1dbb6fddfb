/**
 * Masking for structured values: a JSON value that leaves for the model (structuredContent, a
 * hook's tool_response) and the data of a log line. The shape is kept; only strings change.
 */
import type { Logger } from "../runtime";
import { maskSecrets } from "./secrets";

/** Keys whose string value is judged together with the key: `{"password": "x"}` shows no secret in "x" alone. */
const SECRET_KEY = /pass|pwd|secret|token|key|cred|auth|cookie/i;
const MAX_DEPTH = 200;

/**
 * `value` with every string masked by `mask`; the same reference when nothing changed (so a
 * caller can tell, and a result Spillway leaves alone goes out exactly as it came).
 */
export function maskJsonValue<T>(value: T, mask: (text: string) => string): T {
  return walk(value, null, mask, 0) as T;
}

function walk(value: unknown, key: string | null, mask: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return maskString(value, key, mask);
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((v, i) => {
      const m = walk(v, key, mask, depth + 1);
      if (m !== v) (out ??= value.slice())[i] = m;
    });
    return out ?? value;
  }
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    const m = walk(v, k, mask, depth + 1);
    if (m !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = m;
  }
  return out ?? value;
}

function maskString(value: string, key: string | null, mask: (text: string) => string): string {
  const alone = mask(value);
  if (alone !== value || key === null || !SECRET_KEY.test(key) || value.length > 4096) return alone;
  const pair = JSON.stringify({ [key]: value });
  const masked = mask(pair);
  if (masked === pair) return value;
  try {
    const v = (JSON.parse(masked) as Record<string, unknown>)[key];
    if (typeof v === "string") return v;
  } catch {
    /* a marker that broke the JSON: fall through to the whole value masked */
  }
  return "[masked:secret]";
}

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

/** A logger whose messages and data go through `mask` before they are written anywhere. */
export function maskingLogger(inner: Logger, mask: (text: string) => string): Logger {
  const clean = (msg: string, data?: Record<string, unknown>): [string, Record<string, unknown> | undefined] => {
    try {
      return [mask(msg), data === undefined ? undefined : maskJsonValue(data, mask)];
    } catch {
      return [msg, undefined]; // never write data that could not be masked
    }
  };
  return {
    info: (m, d) => inner.info(...clean(m, d)),
    warn: (m, d) => inner.warn(...clean(m, d)),
    error: (m, d) => inner.error(...clean(m, d)),
  };
}
