/** `spillway import <agent> [path]`: an agent's own history into imported sessions, with progress on stderr; Ctrl-C stops cleanly. */
import { importHistory, type ImportProgress } from "../../audit/importRun";
import { parseAgent } from "../../history/sources";
import { HISTORY_AGENTS } from "../../vocabulary";
import { withEngine, type Command } from "../command";
import { fmtBytes, fmtCountOf, fmtInt } from "../format";

const pct = (p: ImportProgress) => (p.bytes ? Math.floor((p.bytesDone / p.bytes) * 100) : 100);

export const importCommand: Command = {
  usage: `<${HISTORY_AGENTS.join("|")}> [path] [--json]`,
  summary: "Import an agent's own session history (read-only) to audit it and replay it under a policy.",
  options: { quiet: { type: "boolean", short: "q" } },
  run: (ctx) =>
    withEngine(ctx, async (engine) => {
      const [name, path] = ctx.positionals;
      if (!name) {
        ctx.io.err(`spillway import: name the agent (${HISTORY_AGENTS.join(", ")}), e.g. spillway import claude-code`);
        return 2;
      }
      const agent = parseAgent(name);
      const abort = new AbortController();
      const onSigint = () => abort.abort();
      process.once("SIGINT", onSigint);
      let last = "";
      try {
        const r = await importHistory(engine, {
          agent,
          path,
          signal: abort.signal,
          onProgress: (p) => {
            if (ctx.values.quiet) return;
            const line = `importing ${pct(p)} % (${p.filesDone}/${p.files} files, ${fmtBytes(p.bytesDone)} of ${fmtBytes(p.bytes)}): ${fmtInt(p.sessions)} sessions, ${fmtInt(p.callsAdded)} calls added, ${fmtInt(p.callsKept)} already there`;
            if (line !== last) ctx.io.err(line);
            last = line;
          },
        });
        // Token counts and search indexing finish before the store closes.
        await engine.idle();
        const nothing = r.sessions === 0 && r.issueCount > 0 && !r.cancelled;
        for (const i of r.issues) ctx.io.err(`skipped ${i.file}${i.line ? `:${i.line}` : ""}: ${i.message}`);
        if (ctx.values.json) {
          ctx.io.out(JSON.stringify(r, null, 2));
        } else {
          ctx.io.out(
            [
              `${r.cancelled ? "cancelled after" : "imported"} ${fmtCountOf(r.sessions, "session")} from ${r.path}`,
              `  calls     ${fmtInt(r.callsAdded)} added, ${fmtInt(r.callsKept)} already imported${r.unanswered ? `, ${fmtInt(r.unanswered)} without a result (skipped)` : ""}`,
              `  requests  ${fmtInt(r.requests)}`,
              `  skipped   ${fmtInt(r.issueCount)} unreadable lines or records`,
              nothing
                ? `nothing was read as ${agent} history: is ${r.path} the folder it keeps its sessions in? (spillway import ${agent} without a path uses its default)`
                : `next: spillway replay --agent ${agent}`,
            ].join("\n"),
          );
        }
        if (r.cancelled) return 130;
        // Lines there were, and none was this agent's history: the wrong path, most likely.
        return nothing ? 1 : 0;
      } finally {
        process.off("SIGINT", onSigint);
      }
    }),
};
