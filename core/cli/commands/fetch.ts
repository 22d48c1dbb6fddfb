/** `spillway fetch <id> --mode …`: the operator reads any blob; `--session` reads as that session would. */
import { withEngine, type Command } from "../command";

export const fetchCommand: Command = {
  usage:
    "<id> [--mode stat|outline|search|grep|chain|range|query|full] [--session ID] [--query Q] [--pattern P] [--start N] [--count N] [--expression E] [--top-k N] [--context N] [--start-char N] [--count-chars N] [--case-sensitive]",
  summary: "Read a stored result the way the model would (default mode: stat).",
  options: {
    mode: { type: "string" },
    session: { type: "string" },
    query: { type: "string" },
    pattern: { type: "string" },
    expression: { type: "string" },
    start: { type: "string" },
    count: { type: "string" },
    "start-char": { type: "string" },
    "count-chars": { type: "string" },
    "top-k": { type: "string" },
    context: { type: "string" },
    "case-sensitive": { type: "boolean" },
  },
  run: (ctx) =>
    withEngine(ctx, (engine) => {
      const [id] = ctx.positionals;
      if (!id) {
        ctx.io.err("spillway fetch: give the id of a stored result, e.g. spillway fetch 3f9a0c1d2e4b --mode outline");
        return 2;
      }
      const v = ctx.values;
      const num = (k: string) => (v[k] === undefined ? undefined : Number(v[k]));
      const args: Record<string, unknown> = {};
      const put = (k: string, val: unknown) => {
        if (val !== undefined) args[k] = val;
      };
      put("query", v.query);
      put("pattern", v.pattern);
      put("expression", v.expression);
      put("start", num("start"));
      put("count", num("count"));
      put("start_char", num("start-char"));
      put("count_chars", num("count-chars"));
      put("top_k", num("top-k"));
      put("context", num("context"));
      if (v["case-sensitive"]) args.ignore_case = false;
      const session = v.session as string | undefined;
      if (session !== undefined && !engine.reader.session(session)) {
        ctx.io.err(`spillway fetch: no session ${session} in this store (spillway fetch without --session reads any result)`);
        return 1;
      }
      const answer = engine.fetch({
        sessionId: session ?? null,
        operator: "cli",
        id,
        mode: (v.mode as string | undefined) ?? "stat",
        args,
      });
      (answer.isError ? ctx.io.err : ctx.io.out)(answer.isError ? `spillway fetch: ${answer.text}` : answer.text);
      return answer.isError ? 1 : 0;
    }),
};
