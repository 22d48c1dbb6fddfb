/**
 * The Import and Replay views' operations: one import at a time run inside the host's engine
 * (progress polled through `history.status`, cancellable), the replay lab over imported history,
 * and the Overview's "what Spillway would have saved" (a replay under the current config, cached
 * until the next import).
 */
import { importHistory } from "../../audit/importRun";
import { replayHistory } from "../../audit/replayRun";
import { describeError, ErrorCode, SpillwayError } from "../../errors";
import { AGENT_SOURCES } from "../../history/sources";
import { replayCsv, replayJson, replayMarkdown } from "../../replay/export";
import { applyPolicyFile, parsePolicy, policyFromConfig } from "../../replay/policy";
import type { ReplayPolicy } from "../../replay/types";
import { HISTORY_AGENTS, type HistoryAgent } from "../../vocabulary";
import { existsSync } from "node:fs";
import type { HistorySummary, ImportJob } from "../api/dto";
import type { Handlers } from "./handlers";
import type { InspectorHost } from "./host";

type HistoryOps =
  "history.agents" | "history.import" | "history.status" | "history.cancel" | "history.summary" | "replay.run" | "replay.export";

const EXPORTS = {
  md: { fn: replayMarkdown, mime: "text/markdown", ext: "md" },
  csv: { fn: replayCsv, mime: "text/csv", ext: "csv" },
  json: { fn: replayJson, mime: "application/json", ext: "json" },
} as const;

export function historyHandlers(host: InspectorHost): Pick<Handlers, HistoryOps> {
  const { engine } = host;
  let job: ImportJob | null = null;
  let abort: AbortController | null = null;
  let nextId = 1;
  let summary: { version: number; value: Promise<HistorySummary> } | null = null;

  const policiesOf = (raw: Record<string, unknown>[]): ReplayPolicy[] => {
    const base = policyFromConfig(engine.config);
    return raw.map((p, i) =>
      applyPolicyFile(
        base,
        parsePolicy(p, `policies[${i}]`),
        raw.length > 1 ? `policy ${i + 1}` : i === 0 && Object.keys(p).length === 0 ? base.name : "policy",
      ),
    );
  };

  const start = (agent: HistoryAgent, path: string | undefined): ImportJob => {
    if (job?.state === "running")
      throw new SpillwayError(ErrorCode.BadRequest, `an import of ${job.agent} is already running; cancel it or wait for it to finish`);
    const where = path ?? AGENT_SOURCES[agent].defaultPath(process.env);
    const current: ImportJob = {
      id: nextId++,
      agent,
      path: where,
      state: "running",
      startedAt: engine.reader.now,
      endedAt: null,
      files: 0,
      filesDone: 0,
      bytes: 0,
      bytesDone: 0,
      sessions: 0,
      callsAdded: 0,
      callsKept: 0,
      current: null,
      issueCount: 0,
      issues: [],
      error: null,
    };
    job = current;
    abort = new AbortController();
    void importHistory(engine, {
      agent,
      path: where,
      signal: abort.signal,
      onProgress: (p) => Object.assign(current, p, { issues: current.issues }),
    })
      .then((r) => Object.assign(current, { ...r, state: r.cancelled ? "cancelled" : "done", issues: r.issues.slice(0, 200) }))
      .catch((err: unknown) => Object.assign(current, { state: "failed", error: describeError(err) }))
      .finally(() => {
        current.endedAt = engine.reader.now;
        current.current = null;
      });
    return { ...current };
  };

  return {
    "history.agents": () => {
      const counts = new Map(engine.reader.importedCounts().map((c) => [c.agent, c.sessions]));
      return HISTORY_AGENTS.map((agent) => {
        const defaultPath = AGENT_SOURCES[agent].defaultPath(process.env);
        return {
          agent,
          name: AGENT_SOURCES[agent].name,
          defaultPath,
          exists: existsSync(defaultPath),
          importedSessions: counts.get(agent) ?? 0,
        };
      });
    },
    "history.import": ({ agent, path }) => start(agent, path),
    "history.status": () => (job ? { ...job } : null),
    "history.cancel": () => {
      if (job?.state === "running") abort?.abort();
      return job ? { ...job } : null;
    },
    "history.summary": () => {
      const version = engine.reader.historyVersion();
      if (!summary || summary.version !== version) {
        const value = (async (): Promise<HistorySummary> => {
          const counts = engine.reader.importedCounts();
          const sessions = counts.reduce((a, c) => a + c.sessions, 0);
          const base = {
            sessions,
            calls: counts.reduce((a, c) => a + c.calls, 0),
            byAgent: counts.map((c) => ({ agent: c.agent, sessions: c.sessions })),
          };
          if (sessions === 0) return { ...base, wouldSave: null };
          const r = await replayHistory(engine, { scope: {}, policies: [policyFromConfig(engine.config)] });
          const p = r.totals.policies[0]!;
          return {
            ...base,
            wouldSave: {
              requests: r.totals.requests,
              asHappened: r.totals.asHappened,
              promptTokens: p.promptTokens,
              saved: p.saved,
              savedShare: p.savedShare,
              handles: p.handles,
              stubs: p.stubs,
              nearStubs: p.nearStubs,
            },
          };
        })();
        summary = { version, value };
        // A failed replay is not cached: the next ask tries again.
        value.catch(() => {
          if (summary?.value === value) summary = null;
        });
      }
      return summary.value;
    },
    "replay.run": ({ scope, policies, includeText }) => replayHistory(engine, { scope, policies: policiesOf(policies), includeText }),
    "replay.export": async ({ scope, policies, format }) => {
      const report = await replayHistory(engine, { scope, policies: policiesOf(policies) });
      const e = EXPORTS[format];
      const what = scope.sessionId ?? scope.agent ?? "all";
      return { filename: `spillway-replay-${what.replace(/[^\w.-]+/g, "_")}.${e.ext}`, mime: e.mime, text: e.fn(report) };
    },
  };
}
