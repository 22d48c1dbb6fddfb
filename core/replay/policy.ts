/**
 * A replay policy: the knobs of Spillway's interception that decide what the model would have
 * received (threshold, excerpt cap, dedup and near-duplicate stubs, streak guard, per-tool rules).
 * A policy file overrides the current config's values; every key is optional.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { configIssues, issuesSentence, matchesToolPattern, type SpillwayConfig } from "../config/config";
import { ErrorCode, SpillwayError } from "../errors";
import type { ReplayPolicy } from "./types";

export type { ReplayPolicy };

const toolRule = z
  .object({
    /** false: never rescued. */
    rescue: z.boolean().optional(),
    thresholdChars: z.int().min(200).optional(),
    /** false: never stubbed. */
    dedup: z.boolean().optional(),
  })
  .strict();

export const policyFileSchema = z
  .object({
    name: z.string().min(1).max(60).optional(),
    rescue: z
      .object({
        enabled: z.boolean().optional(),
        thresholdChars: z.int().min(200).optional(),
        excludeTools: z.array(z.string()).optional(),
        includeTools: z.array(z.string()).optional(),
        toolThresholds: z.record(z.string(), z.int().min(200)).optional(),
      })
      .strict()
      .optional(),
    excerpt: z
      .object({ maxChars: z.int().min(200).optional(), minChars: z.int().min(200).optional(), share: z.number().min(0).max(1).optional() })
      .strict()
      .optional(),
    dedup: z
      .object({
        enabled: z.boolean().optional(),
        minChars: z.int().min(1).optional(),
        maxChars: z.int().min(1).optional(),
        /** The streak guard: after this many stubs in a row for one call, the next is delivered in full. */
        maxStubStreak: z.int().min(1).optional(),
        streakGuard: z.boolean().optional(),
        nearDuplicates: z.boolean().optional(),
        nearMaxChangedShare: z.number().min(0).max(1).optional(),
        echoStubs: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /** Per-tool rules by exact name or `*` glob; the first match wins. */
    tools: z.record(z.string(), toolRule).optional(),
  })
  .strict();

export type PolicyFile = z.infer<typeof policyFileSchema>;

/** The policy Spillway runs with now: the config's values. */
export function policyFromConfig(c: SpillwayConfig, name = "current config"): ReplayPolicy {
  return {
    name,
    rescue: {
      enabled: true,
      thresholdChars: c.rescue.thresholdChars,
      excludeTools: c.rescue.excludeTools,
      includeTools: c.rescue.includeTools,
      toolThresholds: c.rescue.toolThresholds,
    },
    excerpt: { ...c.excerpt },
    fetch: { ...c.fetch },
    dedup: {
      enabled: true,
      minChars: c.dedup.minChars,
      maxChars: c.dedup.maxChars,
      maxStubStreak: c.dedup.maxStubStreak,
      streakGuard: true,
      nearDuplicates: c.dedup.nearDuplicates,
      nearMaxChangedShare: c.dedup.nearMaxChangedShare,
      echoStubs: c.dedup.echoStubs,
    },
    tools: {},
    mask: c.sensitivity.mode === "mask",
  };
}

/** `base` with the file's values over it. */
export function applyPolicyFile(base: ReplayPolicy, f: PolicyFile, fallbackName: string): ReplayPolicy {
  return {
    name: f.name ?? fallbackName,
    rescue: { ...base.rescue, ...f.rescue },
    excerpt: { ...base.excerpt, ...f.excerpt },
    fetch: base.fetch,
    dedup: { ...base.dedup, ...f.dedup },
    tools: { ...base.tools, ...f.tools },
    mask: base.mask,
  };
}

/** Validates a policy object; a failure names every bad key (the first few), its detail the first. */
export function parsePolicy(input: unknown, source: string): PolicyFile {
  const r = policyFileSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issues = configIssues(r.error);
  throw new SpillwayError(ErrorCode.BadArgument, `${source}: ${issuesSentence(issues)}`, { path: issues[0]!.path });
}

export function loadPolicyFile(path: string): PolicyFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new SpillwayError(ErrorCode.BadArgument, `${path}: not a readable JSON policy (${(err as Error).message.split("\n")[0]})`, {
      path: "policy",
    });
  }
  return parsePolicy(raw, path);
}

/** What the policy does with one tool's results. */
export function ruleFor(p: ReplayPolicy, tool: string): { rescue: boolean; threshold: number; dedup: boolean } {
  const own = Object.entries(p.tools).find(([pattern]) => matchesToolPattern(pattern, tool))?.[1];
  const excluded = p.rescue.excludeTools.some((x) => matchesToolPattern(x, tool));
  const included = p.rescue.includeTools.length === 0 || p.rescue.includeTools.some((x) => matchesToolPattern(x, tool));
  const threshold = Object.entries(p.rescue.toolThresholds).find(([x]) => matchesToolPattern(x, tool))?.[1] ?? p.rescue.thresholdChars;
  return {
    rescue: own?.rescue ?? (p.rescue.enabled && !excluded && included),
    threshold: own?.thresholdChars ?? threshold,
    dedup: p.dedup.enabled && (own?.dedup ?? true),
  };
}
