import { fmtStat } from "./answer";
import { csvRecords } from "./csvRecords";
import { fixture } from "./fetchTestUtil";
import { buildOutline } from "./outline";
import { summarizeTable } from "./outlineTable";

describe("CSV/TSV outline", () => {
  const csv = fixture("transactions.csv");

  it("gives column types and exact numeric stats, computed independently here", () => {
    // The fixture's amount column has no quoted commas, so a plain split finds it.
    const amounts = csv
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",")[4]!)
      .filter((v) => v !== "")
      .map(Number);
    const mean = amounts.reduce((s, x) => s + x, 0) / amounts.length;
    const col = summarizeTable(csv, ",").columns[4]!;
    expect(col.name).toBe("amount");
    expect(col.num.n).toBe(amounts.length);
    expect(col.num.sum / col.num.n).toBe(mean);
    const out = buildOutline(csv, "csv");
    expect(out.split("\n")[0]).toBe("CSV outline: 400 rows × 7 columns, header on line 0");
    expect(out).toContain(
      `4 amount: number, ${amounts.length} values, ${400 - amounts.length} empty, all distinct, min ${fmtStat(Math.min(...amounts))} max ${fmtStat(Math.max(...amounts))} mean ${fmtStat(mean)}`,
    );
    expect(out).toMatch(/^1 date: date, 400 values, .*from 2024-01-01 to 2024-06-28$/m);
    expect(out).toMatch(/^5 currency: string, 400 values, 1 distinct: "EUR" 400$/m);
  });

  it("counts distinct strings, with quoted fields holding delimiters", () => {
    const out = buildOutline(csv, "csv");
    expect(out).toMatch(/^6 memo: string, \d+ values, \d+ empty, 4 distinct: .*"refund, partial" \d+/m);
  });

  it("parses quotes, doubled quotes, newlines inside quotes and CRLF, reporting start lines", () => {
    const text = 'id,note\r\n1,"a, b"\r\n2,"say ""hi"""\r\n3,"two\nlines"\r\n\r\n4,plain\r\n';
    expect([...csvRecords(text, ",")]).toEqual([
      { fields: ["id", "note"], line: 0 },
      { fields: ["1", "a, b"], line: 1 },
      { fields: ["2", 'say "hi"'], line: 2 },
      { fields: ["3", "two\nlines"], line: 3 },
      { fields: ["4", "plain"], line: 6 },
    ]);
  });

  it("outlines TSV and notes ragged rows", () => {
    const tsv = "name\tqty\tprice\nbolt\t10\t0.25\nnut\t20\t0.1\nwasher\t5\n";
    const out = buildOutline(tsv, "tsv");
    expect(out.split("\n")[0]).toBe(
      "TSV outline: 3 rows × 3 columns, header on line 0; 1 rows have a different number of fields, the first on line 3",
    );
    expect(out).toContain("1 qty: integer, 3 values, all distinct, min 5 max 20 mean 11.6667");
    expect(out).toContain("2 price: number, 2 values, 1 empty, all distinct, min 0.1 max 0.25 mean 0.175");
  });

  it("treats a first row of numbers as data, not a header", () => {
    const t = summarizeTable("1,2\n3,4\n", ",");
    expect(t.hasHeader).toBe(false);
    expect(t.rows).toBe(2);
    expect(t.columns.map((c) => c.name)).toEqual(["column 0", "column 1"]);
  });
});
