/** CSV/TSV outline: columns with inferred types, numeric min/max/mean and distinct counts. */
import { fmtCount, fmtStat, quote } from "./answer";
import { csvRecords } from "./csvRecords";

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN = /^(true|false|yes|no)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** Distinct values tracked per column; the count is a lower bound beyond it. */
const MAX_DISTINCT = 10_000;
const MAX_COLUMNS = 100;

/** Statistics of one column (exported for tests). */
export interface ColumnStats {
  name: string;
  values: number;
  empty: number;
  num: { n: number; ints: number; min: number; max: number; sum: number };
  bools: number;
  dates: { n: number; min: string; max: string };
  distinct: Map<string, number>;
  distinctCapped: boolean;
  firstNonNumeric: string | null;
}

export interface TableSummary {
  rows: number;
  columns: ColumnStats[];
  headerLine: number;
  hasHeader: boolean;
  ragged: number;
  firstRaggedLine: number;
}

/** Scans a delimited table once; the first record is the header unless it looks like data. */
export function summarizeTable(text: string, delim: "," | "\t"): TableSummary {
  const out: TableSummary = { rows: 0, columns: [], headerLine: 0, hasHeader: true, ragged: 0, firstRaggedLine: -1 };
  let width = 0;
  for (const rec of csvRecords(text, delim)) {
    if (width === 0) {
      width = rec.fields.length;
      out.headerLine = rec.line;
      out.hasHeader = !rec.fields.some((f) => NUMBER.test(f.trim()));
      out.columns = rec.fields.slice(0, MAX_COLUMNS).map((f, i) => newColumn(out.hasHeader ? f.trim() : `column ${i}`));
      if (out.hasHeader) continue;
    }
    out.rows++;
    if (rec.fields.length !== width) {
      out.ragged++;
      if (out.firstRaggedLine < 0) out.firstRaggedLine = rec.line;
    }
    for (let i = 0; i < out.columns.length; i++) addValue(out.columns[i]!, rec.fields[i]);
  }
  return out;
}

function newColumn(name: string): ColumnStats {
  return {
    name,
    values: 0,
    empty: 0,
    num: { n: 0, ints: 0, min: Infinity, max: -Infinity, sum: 0 },
    bools: 0,
    dates: { n: 0, min: "", max: "" },
    distinct: new Map(),
    distinctCapped: false,
    firstNonNumeric: null,
  };
}

function addValue(c: ColumnStats, raw: string | undefined): void {
  const v = (raw ?? "").trim();
  if (v === "") {
    c.empty++;
    return;
  }
  c.values++;
  if (NUMBER.test(v)) {
    const x = Number(v);
    c.num.n++;
    if (Number.isInteger(x)) c.num.ints++;
    if (x < c.num.min) c.num.min = x;
    if (x > c.num.max) c.num.max = x;
    c.num.sum += x;
  } else {
    c.firstNonNumeric ??= v;
    if (BOOLEAN.test(v)) c.bools++;
    else if (DATE.test(v)) {
      const d = c.dates;
      if (d.n === 0 || v < d.min) d.min = v;
      if (d.n === 0 || v > d.max) d.max = v;
      d.n++;
    }
  }
  const key = v.length <= 200 ? v : v.slice(0, 200) + `\u0000${v.length}`;
  const seen = c.distinct.get(key);
  if (seen !== undefined) c.distinct.set(key, seen + 1);
  else if (c.distinct.size < MAX_DISTINCT) c.distinct.set(key, 1);
  else c.distinctCapped = true;
}

/** The outline text of a CSV (`,`) or TSV (`\t`) blob. */
export function tableOutline(text: string, delim: "," | "\t"): string {
  const t = summarizeTable(text, delim);
  const name = delim === "," ? "CSV" : "TSV";
  const head = `${name} outline: ${fmtCount(t.rows)} rows × ${t.columns.length} columns, ${t.hasHeader ? `header on line ${t.headerLine}` : "no header row"}`;
  const ragged =
    t.ragged > 0 ? `; ${fmtCount(t.ragged)} rows have a different number of fields, the first on line ${t.firstRaggedLine}` : "";
  return [head + ragged, ...t.columns.map((c, i) => `${i} ${c.name}: ${describeColumn(c)}`)].join("\n");
}

/** `integer, 1,000 values, all distinct, min 1 max 1000 mean 500.5` and the like. */
export function describeColumn(c: ColumnStats): string {
  if (c.values === 0) return `empty (${fmtCount(c.empty)} blank)`;
  const parts: string[] = [];
  const nonNum = c.values - c.num.n;
  const numeric = c.num.n > 0 && nonNum <= c.values * 0.1;
  if (numeric) parts.push(c.num.ints === c.num.n ? "integer" : "number");
  else if (c.bools === c.values) parts.push("boolean");
  else if (c.dates.n === c.values) parts.push("date");
  else parts.push("string");
  parts.push(`${fmtCount(c.values)} values`);
  if (c.empty > 0) parts.push(`${fmtCount(c.empty)} empty`);
  if (numeric && nonNum > 0) parts.push(`${fmtCount(nonNum)} non-numeric such as ${quote(c.firstNonNumeric ?? "", 30)}`);
  parts.push(distinctText(c));
  if (numeric) parts.push(`min ${fmtStat(c.num.min)} max ${fmtStat(c.num.max)} mean ${fmtStat(c.num.sum / c.num.n)}`);
  else if (c.dates.n === c.values) parts.push(`from ${c.dates.min} to ${c.dates.max}`);
  return parts.join(", ");
}

function showValues(list: [string, number][]): string {
  return list.map(([v, n]) => `${quote(v.split("\u0000")[0]!, 40)} ${fmtCount(n)}`).join(", ");
}

function distinctText(c: ColumnStats): string {
  const d = c.distinct.size;
  if (c.distinctCapped) return `${fmtCount(d)}+ distinct`;
  if (d === c.values && d > 1) return "all distinct";
  const top = [...c.distinct].toSorted((a, b) => b[1] - a[1]);
  if (d <= 8) return `${d} distinct: ${showValues(top)}`;
  const common = top.slice(0, 3).filter(([, n]) => n > 1);
  return `${fmtCount(d)} distinct${common.length ? `, most common ${showValues(common)}` : ""}`;
}
