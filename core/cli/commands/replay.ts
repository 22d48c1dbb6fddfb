/** `spillway replay`: what the model would have received under a policy, for imported history, beside what it got. */
import { writeFileSync } from "node:fs";
import { replayHistory } from "../../audit/replayRun";
import { ErrorCode, SpillwayError } from "../../errors";
import { parseAgent } from "../../history/sources";
import { replayCsv, replayJson, replayMarkdown } from "../../replay/export";
import { applyPolicyFile, loadPolicyFile, policyFromConfig } from "../../replay/policy";
import { withEngine, type Command } from "../command";
import { fmtInt, table } from "../format";

const FORMATS = { md: replayMarkdown, csv: replayCsv, json: replayJson } as const;

export const replayCommand: Command = {
  usage: "[--session ID | --agent A | --project DIR] [--policy FILE]… [--json | --format md|csv|json] [--out FILE]",
  summary: "Replay imported history under a policy (or two side by side): prompt tokens per request, savings per tool.",
  options: {
    session: { type: "string" },
    agent: { type: "string" },
    project: { type: "string" },
    policy: { type: "string", multiple: true },
    format: { type: "string" },
    out: { type: "string" },
  },
  run: (ctx) =>
    withEngine(ctx, async (engine) => {
      const v = ctx.values as Record<string, string | string[] | boolean | undefined>;
      const scopes = ["session", "agent", "project"].filter((k) => v[k] !== undefined);
      if (scopes.length > 1)
        throw new SpillwayError(
          ErrorCode.BadArgument,
          `give one of --session, --agent or --project, not ${scopes.map((s) => `--${s}`).join(" and ")}`,
        );
      const format = (v.format as string | undefined) ?? (v.json ? "json" : undefined);
      if (format !== undefined && !Object.hasOwn(FORMATS, format))
        throw new SpillwayError(ErrorCode.BadArgument, `--format is md, csv or json, not "${format}"`);
      const base = policyFromConfig(engine.config);
      const files = (v.policy as string[] | undefined) ?? [];
      const policies = files.length
        ? files.map((f, i) => applyPolicyFile(base, loadPolicyFile(f), files.length > 1 ? `policy ${i + 1}` : "policy"))
        : [base];
      const scope = {
        sessionId: v.session as string | undefined,
        agent: v.agent ? parseAgent(v.agent as string) : undefined,
        // As the agent recorded it: no trailing slash ("/home/dev/app/" is the project "/home/dev/app").
        project: typeof v.project === "string" ? v.project.replace(/(?<=.)\/+$/, "") : undefined,
      };
      let shown = -1;
      const report = await replayHistory(engine, {
        scope,
        policies,
        // Every tenth of the way, not every session.
        onProgress: (done, total) => {
          const tenth = Math.floor((done / Math.max(1, total)) * 10);
          if (total > 1 && tenth !== shown) ctx.io.err(`replaying ${done}/${total} sessions`);
          shown = tenth;
        },
      });
      if (report.totals.sessions === 0) {
        const named = scopes.map((k) => `--${k} ${k === "project" ? scope.project : String(v[k])}`).join(" ");
        ctx.io.err(
          named
            ? `spillway replay: no imported history matches ${named}; without it, all imported history is replayed`
            : "spillway replay: no imported history to replay; run spillway import <agent> first",
        );
        return 1;
      }
      if (format) {
        const text = FORMATS[format as keyof typeof FORMATS](report);
        if (v.out) writeFileSync(v.out as string, text);
        else ctx.io.out(text);
        return 0;
      }
      if (v.out) writeFileSync(v.out as string, replayMarkdown(report));
      const t = report.totals;
      ctx.io.out(
        [
          `${fmtInt(t.sessions)} sessions, ${fmtInt(t.requests)} requests, ${fmtInt(t.calls)} calls; prompt tokens (${report.tokenizer}, the whole history re-sent on every request):`,
          table([
            ["", "prompt tokens", "saved", "handles", "stubs", "near-dup"],
            ["as it happened", fmtInt(t.asHappened), "", "", "", ""],
            ...t.policies.map((p) => [
              p.name,
              fmtInt(p.promptTokens),
              `${fmtInt(p.saved)} (${(p.savedShare * 100).toFixed(1)} %)`,
              fmtInt(p.handles),
              fmtInt(p.stubs),
              fmtInt(p.nearStubs),
            ]),
          ]),
          "",
          "where the savings come from (billed tokens of each tool's results):",
          table([
            ["tool", "calls", "as it happened", ...t.policies.map((p) => `saved (${p.name})`)],
            ...report.tools
              .slice(0, 15)
              .map((x) => [x.tool, fmtInt(x.calls), fmtInt(x.asHappened), ...x.policies.map((p) => fmtInt(p.saved))]),
          ]),
        ].join("\n"),
      );
      return 0;
    }),
};
