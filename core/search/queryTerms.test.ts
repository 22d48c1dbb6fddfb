import { ftsMatchExpression, queryTerms, selectTerms, splitCamel } from "./queryTerms";

describe("queryTerms", () => {
  it("drops stopwords from a plain-language question", () => {
    expect(queryTerms("How do I configure the retry timeout?")).toEqual(["configure", "retry", "timeout"]);
  });

  it("strips FTS syntax so it cannot change the query", () => {
    const terms = queryTerms('"foo" AND NOT bar* NEAR(baz, 2) col:qux ^x');
    expect(terms).toEqual(["foo", "bar", "near", "baz", "2", "col", "qux", "x"]);
    expect(ftsMatchExpression(terms)).toBe('"foo" OR "bar" OR "near" OR "baz" OR "2" OR "col" OR "qux" OR "x"');
  });

  it("splits camelCase identifiers as well as keeping them whole", () => {
    expect(queryTerms("retryTimeoutMs")).toEqual(["retrytimeoutms", "retry", "timeout", "ms"]);
    expect(splitCamel("HTTPServer")).toEqual(["HTTP", "Server"]);
  });

  it("searches an id mixing letters and digits whole, never by its pieces", () => {
    expect(queryTerms("abc123def")).toEqual(["abc123def"]);
    expect(queryTerms("where is Sup3rS3cretPassw0rd used")).toEqual(["sup3rs3cretpassw0rd", "used"]);
    expect(queryTerms("error E1234 in retryTimeoutMs")).toEqual(["error", "e1234", "retrytimeoutms", "retry", "timeout", "ms"]);
  });

  it("keeps a question made only of stopwords", () => {
    expect(queryTerms("what is this")).toEqual(["what", "is", "this"]);
    expect(queryTerms("?!  ...")).toEqual([]);
  });
});

describe("selectTerms", () => {
  const df: Record<string, number> = { rare: 10, mid: 5_000, common: 90_000, absent: 0 };
  it("ranks with the rarest terms within the budget and drops terms that match nothing", () => {
    expect(selectTerms(["common", "rare", "absent", "mid"], (t) => df[t]!, 20_000)).toEqual(["rare", "mid"]);
    expect(selectTerms(["common", "rare", "mid"], (t) => df[t]!, 1_000_000)).toEqual(["rare", "mid", "common"]);
  });
  it("always keeps the rarest matching term, even over budget", () => {
    expect(selectTerms(["common"], (t) => df[t]!, 100)).toEqual(["common"]);
    expect(selectTerms(["absent"], (t) => df[t]!, 100)).toEqual([]);
  });
});
