/**
 * `spillway search <words>`: the stored results that hold them, best first, as the inspector's Search
 * finds them (the search index holds the masked view: a secret never matches nor shows). Each hit
 * names the result's id (for `spillway fetch <id>`), its tool, session, time and lines, and a snippet.
 */
import { withEngine, type Command } from "../command";
import { fmtInt } from "../format";

const DEFAULT_TOP_K = 10;

export const searchCommand: Command = {
  usage: "<words…> [--session ID] [--tool NAME] [--top-k N]",
  summary: "Find stored results by their words (best first, masked), with the ids spillway fetch reads.",
  options: { session: { type: "string" }, tool: { type: "string" }, "top-k": { type: "string" } },
  run: (ctx) =>
    withEngine(ctx, (engine) => {
      const query = ctx.positionals.join(" ").trim();
      if (!query) {
        ctx.io.err('spillway search: give the words to look for, e.g. spillway search "checksum mismatch"');
        return 2;
      }
      const topK = ctx.values["top-k"] === undefined ? DEFAULT_TOP_K : Number(ctx.values["top-k"]);
      if (!Number.isInteger(topK) || topK < 1 || topK > 1_000) {
        ctx.io.err(`spillway search: --top-k must be a whole number from 1 to 1000, not "${String(ctx.values["top-k"])}"`);
        return 2;
      }
      const filter = {
        ...(ctx.values.session !== undefined ? { sessionId: String(ctx.values.session) } : {}),
        ...(ctx.values.tool !== undefined ? { tool: String(ctx.values.tool) } : {}),
      };
      const ids = Object.keys(filter).length ? engine.reader.blobIdsMatching(filter) : undefined;
      let narrowedTo: number | null = null;
      const found =
        ids?.length === 0 ? [] : engine.search(query, { topK, onNarrowed: (n) => (narrowedTo = n), ...(ids ? { blobIds: ids } : {}) });
      const hits = found.flatMap((h) => {
        const m = engine.reader.meta(h.blobId);
        return m
          ? [
              {
                id: h.blobId,
                tool: m.tool,
                session: m.sessionId,
                createdAt: m.createdAt,
                lines: [h.startLine + 1, h.endLine + 1],
                snippet: h.snippet,
              },
            ]
          : [];
      });
      const unindexed = engine.unindexedBlobs();
      if (ctx.values.json) {
        ctx.io.out(JSON.stringify({ query, hits, unindexed, narrowedTo }, null, 2));
        return hits.length ? 0 : 1;
      }
      const out: string[] = [];
      for (const h of hits) {
        out.push(
          `${h.id}  ${h.tool}  session ${h.session}  ${new Date(h.createdAt).toISOString()}  lines ${fmtInt(h.lines[0]!)}-${fmtInt(h.lines[1]!)}`,
        );
        out.push(...h.snippet.split("\n").map((l) => `    ${l}`), "");
      }
      out.push(
        hits.length
          ? `${hits.length} hit${hits.length === 1 ? "" : "s"}; read one with spillway fetch <id> --mode grep --pattern …`
          : `no stored result holds "${query}"`,
      );
      if (narrowedTo !== null)
        out.push(
          `(a common word: ranked among the newest ${fmtInt(narrowedTo)} passages that hold it; add a rarer word to search them all)`,
        );
      if (unindexed > 0)
        out.push(
          `(${fmtInt(unindexed)} result${unindexed === 1 ? " is" : "s are"} not in the search index: very large, or still being indexed)`,
        );
      ctx.io.out(out.join("\n"));
      return hits.length ? 0 : 1;
    }),
};
