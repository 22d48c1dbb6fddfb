import { FETCH_ARG_NAMES, fetchToolShape, parseFetchArgs } from "./fetchArgs";

describe("parseFetchArgs", () => {
  it("applies defaults", () => {
    expect(parseFetchArgs("search", { query: "retry timeout" })).toEqual({
      ok: true,
      mode: "search",
      args: { query: "retry timeout", top_k: 5 },
    });
    expect(parseFetchArgs("grep", { pattern: "x" })).toEqual({
      ok: true,
      mode: "grep",
      args: { pattern: "x", ignore_case: true, from_line: 0 },
    });
    expect(parseFetchArgs("chain", { pattern: "x" })).toMatchObject({ ok: true, args: { context: 3, ignore_case: true } });
  });

  it("accepts loosely typed values the way models send them", () => {
    expect(parseFetchArgs(" GREP ", { pattern: "x", ignore_case: "false", from_line: "12" })).toMatchObject({
      ok: true,
      mode: "grep",
      args: { ignore_case: false, from_line: 12 },
    });
    expect(parseFetchArgs("range", { start: "5", count: null })).toMatchObject({ ok: true, args: { start: 5 } });
    expect(parseFetchArgs("stat", { unrelated: 1 })).toEqual({ ok: true, mode: "stat", args: {} });
  });

  it("answers a missing or mistyped argument with a sentence naming it", () => {
    expect(parseFetchArgs("grep", {})).toEqual({
      ok: false,
      message: "Mode grep needs the argument pattern, a non-empty RE2 regular expression.",
    });
    expect(parseFetchArgs("search", { query: "x", top_k: 500 })).toEqual({
      ok: false,
      message: "The argument top_k of mode search must be a whole number from 1 to 50.",
    });
    expect(parseFetchArgs("chain", { pattern: "x", context: "lots" })).toEqual({
      ok: false,
      message: "The argument context of mode chain must be a whole number of lines from 0 to 50.",
    });
    expect(parseFetchArgs("query", { expression: "  " })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/expression of mode query/),
    });
    expect(parseFetchArgs("range", {})).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Mode range needs the argument start/),
    });
    expect(parseFetchArgs("range", { start: 1, start_char: 2 })).toMatchObject({ ok: false, message: expect.stringMatching(/not both/) });
    expect(parseFetchArgs("range", { start: -1 })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/argument start of mode range/),
    });
  });

  it("lists the valid modes for an unknown one", () => {
    expect(parseFetchArgs("peek", {})).toEqual({
      ok: false,
      message: 'Unknown mode "peek": the valid modes are stat, outline, search, grep, chain, range, query, full.',
    });
  });
});

describe("fetchToolShape", () => {
  it("advertises exactly the arguments the validators take", () => {
    const shape = fetchToolShape().shape;
    expect(Object.keys(shape).toSorted()).toEqual(["id", "mode", ...FETCH_ARG_NAMES].toSorted());
    // an argument the advertised schema offers is one some mode accepts
    for (const name of FETCH_ARG_NAMES) {
      const sample = name === "ignore_case" ? true : /^(query|pattern|expression)$/.test(name) ? "x" : 1;
      const accepted = ["search", "grep", "chain", "range", "query"].some((m) => {
        const base = {
          query: "q",
          pattern: "p",
          expression: "e",
          ...(name.endsWith("_char") || name === "count_chars" ? { start_char: 0 } : { start: 0 }),
        };
        const r = parseFetchArgs(m, { ...base, [name]: sample });
        return r.ok && (r.args as Record<string, unknown>)[name] === sample;
      });
      expect(accepted, name).toBe(true);
    }
    expect(shape.pattern!.description).toMatch(/RE2/);
    expect(shape.expression!.description).toMatch(/JMESPath/);
  });
});
