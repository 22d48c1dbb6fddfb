/**
 * Masking for structured values: a JSON value that leaves for the model (structuredContent, a
 * hook's tool_response) and the data of a log line. The shape is kept; only strings change.
 */
// No import of the detector here: `spillway mcp` builds its logger before anything heavy loads.
import type { Logger } from "../runtime";

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

type Level = "info" | "warn" | "error";
type Entry = [level: Level, msg: string, data?: Record<string, unknown>];

/** A log entry with its message and data through `mask`; data that cannot be masked is left out, never written in clear. */
function clean(mask: (text: string) => string, [level, msg, data]: Entry): Entry {
  try {
    return [level, mask(msg), data === undefined ? undefined : maskJsonValue(data, mask)];
  } catch {
    return [level, msg];
  }
}

/** A logger whose messages and data go through `mask` before they are written anywhere. */
export function maskingLogger(inner: Logger, mask: (text: string) => string): Logger {
  const write = (e: Entry) => {
    const [level, msg, data] = clean(mask, e);
    inner[level](msg, data);
  };
  return {
    info: (m, d) => write(["info", m, d]),
    warn: (m, d) => write(["warn", m, d]),
    error: (m, d) => write(["error", m, d]),
  };
}

/**
 * `maskingLogger` whose mask loads on the first entry (the detector compiles a large RE2
 * program, which a process that never logs should not pay for at startup). Entries wait for it
 * and then go out in order; `flushed()` resolves when none is waiting. If the mask cannot load,
 * entries go out with their message only.
 */
export function lazyMaskingLogger(inner: Logger, load: () => Promise<(text: string) => string>): Logger & { flushed(): Promise<void> } {
  let mask: ((text: string) => string) | null = null;
  let loading: Promise<void> | null = null;
  const queue: Entry[] = [];
  const write = (e: Entry) => {
    const [level, msg, data] = mask ? clean(mask, e) : [e[0], e[1]];
    inner[level](msg, data);
  };
  const log = (e: Entry) => {
    if (mask) return write(e);
    queue.push(e);
    loading ??= load()
      .then(
        (m) => void (mask = m),
        () => undefined,
      )
      .then(() => {
        for (const q of queue.splice(0)) write(q);
      });
  };
  return {
    info: (m, d) => log(["info", m, d]),
    warn: (m, d) => log(["warn", m, d]),
    error: (m, d) => log(["error", m, d]),
    flushed: () => loading ?? Promise.resolve(),
  };
}
