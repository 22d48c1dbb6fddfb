import { runFetch } from "./fetchModes";
import { expectSentence, fixture, inputFor } from "./fetchTestUtil";

const orders = fixture("orders-page.json");
const events = fixture("events.ndjson");
const query = (content: string, kind: "json" | "ndjson" | "log" | "text", expression: unknown, maxChars = 4000) =>
  runFetch("query", { ...inputFor(content, kind, { expression }), limits: { maxChars, fullMaxChars: 50_000 } });

describe("query", () => {
  it("runs JMESPath over JSON and counts what the data holds", () => {
    const data = JSON.parse(orders) as { data: { status: string; amount: number }[] };
    const paid = data.data.filter((o) => o.status === "paid").length;
    const a = query(orders, "json", "length(data[?status=='paid'])");
    expect(a.isError).toBe(false);
    expect(a.text.split("\n").at(-1)).toBe(String(paid));
    const sum = query(orders, "json", "sum(data[].amount)");
    expect(Number(sum.text.split("\n").at(-1))).toBeCloseTo(
      data.data.reduce((s, o) => s + o.amount, 0),
      6,
    );
  });

  it("reads NDJSON as an array of records", () => {
    const records = events
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    const a = query(events, "ndjson", "length([?type=='purchase'])");
    expect(a.text.split("\n").at(-1)).toBe(String(records.filter((r) => r.type === "purchase").length));
  });

  it("pretty-prints results and cuts big ones with a hint", () => {
    const a = query(orders, "json", "data[0].shipping");
    expect(a.text).toContain('"city": ');
    const b = query(orders, "json", "data", 2000);
    expect(b.truncated).toBe(true);
    expect(b.text.length).toBeLessThanOrEqual(2000);
    expect(b.text).toMatch(/slice it, e\.g\. \[0:20\]/);
  });

  it("says when nothing matched", () => {
    expect(query(orders, "json", "nosuchfield").text).toMatch(/matched nothing \(null\)/);
  });

  it("answers errors with one sentence", () => {
    expectSentence(query(orders, "json", "data[?"), /is not valid JMESPath/);
    expectSentence(
      query(fixture("nightly-batch.log"), "log", "a.b"),
      /^Mode query works on json and ndjson blobs, and blob-test is log; use grep/,
    );
    expectSentence(query('{"a": 1', "json", "a"), /not valid JSON/);
    expectSentence(query('{"a":1}\nnot json\n', "ndjson", "a"), /^Line 1 of ndjson blob/);
    expectSentence(query(orders, "json", undefined), /needs the argument expression/);
  });
});
