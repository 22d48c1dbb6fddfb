/** Reading, validating and saving config.json for the Settings view, with the engine's own schema. */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { configIssues, configSchema, defaultConfig, type SpillwayConfig } from "../../config/config";
import { DIR_MODE, writeFileAtomic } from "../../fs/fsUtil";
import type { ConfigIssue, ConfigView } from "../api/dto";
import { describeError, ErrorCode, SpillwayError } from "../../errors";
import { maskJsonValue } from "../../sensitivity";

let jsonSchema: Record<string, unknown> | null = null;

/** The config's JSON Schema in input form (defaults shown, nothing required). */
export function configJsonSchema(): Record<string, unknown> {
  jsonSchema ??= z.toJSONSchema(configSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return jsonSchema;
}

export function validateConfig(input: unknown): { valid: true; config: SpillwayConfig } | { valid: false; issues: ConfigIssue[] } {
  const r = configSchema.safeParse(input ?? {});
  if (r.success) return { valid: true, config: r.data };
  return {
    valid: false,
    issues: configIssues(r.error),
  };
}

function readFile(path: string): unknown {
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, "utf8")) as unknown;
  } catch (err) {
    throw new SpillwayError(ErrorCode.BadConfig, `${path} is not valid JSON (${describeError(err)}); fix or delete it.`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The keys of `value` that differ from `defaults`: what config.json needs to hold. Upstream
 * servers are the user's own list and are always kept whole.
 */
export function diffFromDefaults(value: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const d = defaults[k];
    if (k === "mcpServers") {
      if (isObject(v) && Object.keys(v).length > 0) out[k] = v;
    } else if (isObject(v) && isObject(d)) {
      const sub = diffFromDefaults(v, d);
      if (Object.keys(sub).length > 0) out[k] = sub;
    } else if (JSON.stringify(v) !== JSON.stringify(d)) out[k] = v;
  }
  return out;
}

/**
 * The config as the Settings view shows it, its secret-shaped values (an upstream's token in its
 * `env` or `headers`) through `mask`, the operator's view: the page is read on screens others see.
 */
export function readConfigView(path: string, running: SpillwayConfig, mask: Mask = (t) => t): ConfigView {
  const exists = existsSync(path);
  const checked = validateConfig(readFile(path));
  if (!checked.valid) {
    const first = checked.issues[0]!;
    throw new SpillwayError(ErrorCode.BadConfig, `${path}: "${first.path}": ${first.message}`, { path: first.path });
  }
  return {
    path,
    exists,
    config: maskJsonValue(checked.config, mask) as unknown as Record<string, unknown>,
    defaults: defaultConfig() as unknown as Record<string, unknown>,
    schema: configJsonSchema(),
    restartRequired: JSON.stringify(checked.config) !== JSON.stringify(running),
  };
}

type Mask = (text: string) => string;

/**
 * `input` with each value the view showed masked (and that came back unchanged) set back to the
 * file's own: saving the Settings form must never write a marker over an upstream's token.
 */
export function restoreMasked(input: unknown, shown: unknown, original: unknown): unknown {
  if (typeof input === "string") return input === shown && shown !== original && typeof original === "string" ? original : input;
  if (Array.isArray(input))
    return Array.isArray(shown) && Array.isArray(original) ? input.map((v, i) => restoreMasked(v, shown[i], original[i])) : input;
  if (!isObject(input) || !isObject(shown) || !isObject(original)) return input;
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, restoreMasked(v, shown[k], original[k])]));
}

/** Validates and writes config.json (atomically, owner-only), keeping only non-default keys. */
export function saveConfig(path: string, input: unknown, running: SpillwayConfig, mask: Mask = (t) => t): ConfigView {
  let current: ReturnType<typeof validateConfig> | null = null;
  try {
    current = validateConfig(readFile(path));
  } catch {
    // A file that is not JSON has no values to set back: the form replaces it.
  }
  if (current?.valid) input = restoreMasked(input, maskJsonValue(current.config, mask), current.config);
  const checked = validateConfig(input);
  if (!checked.valid) {
    const first = checked.issues[0]!;
    throw new SpillwayError(ErrorCode.BadConfig, `"${first.path}": ${first.message}`, { path: first.path });
  }
  const minimal = diffFromDefaults(
    checked.config as unknown as Record<string, unknown>,
    defaultConfig() as unknown as Record<string, unknown>,
  );
  // --config may point anywhere: create a missing folder owner-only, never re-permission an existing one.
  mkdirSync(dirname(path), { recursive: true, mode: DIR_MODE });
  writeFileAtomic(path, JSON.stringify(minimal, null, 2) + "\n");
  return readConfigView(path, running, mask);
}
