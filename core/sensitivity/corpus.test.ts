// Precision and recall of secret detection on the labelled corpus (secretCorpus.txt). Recall:
// the share of expected spans masked in full. Precision: the share of findings that overlap an
// expected span (a finding on a `-` line, or beside the spans of a `+` line, is a false positive).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { rng } from "../../tests/fixtures/seededRandom";
import { findSecrets } from "./secrets";

interface Case {
  line: number;
  text: string;
  spans: { start: number; end: number }[];
}

const ALPHABETS: Record<string, string> = {
  alnum: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
  hex: "0123456789abcdef",
  HEX: "0123456789ABCDEF",
  upper: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
  lower: "abcdefghijklmnopqrstuvwxyz",
  digits: "0123456789",
  b64: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
  b64url: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
  bech32: "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
};

/** Reads the corpus, fills its templates from a seeded generator and strips the span marks. */
function loadCorpus(): Case[] {
  const rnd = rng(11);
  const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
  const b64url = (s: string) => Buffer.from(s).toString("base64url");
  const fill = (s: string) =>
    s.replace(/\{(\w+)(?::(\d+))?\}/g, (whole, name: string, n?: string) => {
      if (name === "jwt")
        return `${b64url(`{"alg":"HS256","typ":"JWT"}`)}.${b64url(`{"sub":"${pick(ALPHABETS.hex!, 8)}","exp":1893456000}`)}.${pick(ALPHABETS.b64url!, 43)}`;
      const alphabet = ALPHABETS[name];
      return alphabet && n ? pick(alphabet, Number(n)) : whole;
    });
  const raw = readFileSync(join(import.meta.dirname, "secretCorpus.txt"), "utf8").split("\n");
  const cases: Case[] = [];
  raw.forEach((l, i) => {
    const sign = l.slice(0, 2);
    if (sign !== "+ " && sign !== "- ") return;
    const marked = fill(l.slice(2)).replaceAll("↵", "\n");
    const spans: Case["spans"] = [];
    let text = "";
    for (let j = 0; j < marked.length; j++) {
      const ch = marked[j]!;
      if (ch === "⟦") spans.push({ start: text.length, end: -1 });
      else if (ch === "⟧") spans[spans.length - 1]!.end = text.length;
      else text += ch;
    }
    if ((sign === "+ ") !== spans.length > 0) throw new Error(`corpus line ${i + 1}: a + line needs spans, a - line none`);
    cases.push({ line: i + 1, text, spans });
  });
  return cases;
}

function score(cases: Case[]) {
  let expected = 0;
  let recalled = 0;
  let findings = 0;
  let truePositive = 0;
  let exact = 0;
  const misses: string[] = [];
  const falsePositives: string[] = [];
  for (const c of cases) {
    const found = findSecrets(c.text);
    findings += found.length;
    for (const s of c.spans) {
      expected++;
      const covered = (at: number) => found.some((f) => f.start <= at && at < f.end);
      let all = true;
      for (let at = s.start; at < s.end && all; at++) all = covered(at);
      if (all) recalled++;
      else misses.push(`line ${c.line}: ${c.text.slice(s.start, s.end).slice(0, 60)}`);
      if (found.some((f) => f.start === s.start && f.end === s.end)) exact++;
    }
    for (const f of found) {
      if (c.spans.some((s) => f.start < s.end && s.start < f.end)) truePositive++;
      else falsePositives.push(`line ${c.line} (${f.type}): ${c.text.slice(f.start, f.end).slice(0, 60)}`);
    }
  }
  return {
    expected,
    recalled,
    findings,
    truePositive,
    exact,
    misses,
    falsePositives,
    recall: recalled / expected,
    precision: truePositive / findings,
  };
}

describe("the labelled secret corpus", () => {
  const cases = loadCorpus();
  const s = score(cases);

  it("holds enough positive and negative cases to mean something", () => {
    expect(cases.filter((c) => c.spans.length > 0).length).toBeGreaterThanOrEqual(120);
    expect(cases.filter((c) => c.spans.length === 0).length).toBeGreaterThanOrEqual(70);
  });

  it("keeps precision and recall above their floors", () => {
    console.log(
      `secret corpus: ${cases.length} lines, ${s.expected} expected spans, ${s.findings} findings; ` +
        `recall ${(s.recall * 100).toFixed(1)} % (${s.recalled}/${s.expected}), precision ${(s.precision * 100).toFixed(1)} % (${s.truePositive}/${s.findings}), ` +
        `exact spans ${s.exact}/${s.expected}` +
        (s.misses.length ? `\n  missed:\n    ${s.misses.join("\n    ")}` : "") +
        (s.falsePositives.length ? `\n  false positives:\n    ${s.falsePositives.join("\n    ")}` : ""),
    );
    expect(s.recall).toBeGreaterThanOrEqual(0.95);
    expect(s.precision).toBeGreaterThanOrEqual(0.97);
  });

  it("finds the same spans when given the text's UTF-8 bytes (the rescue path's single encoding)", () => {
    for (const c of cases) expect(findSecrets(c.text, Buffer.from(c.text, "utf8"))).toEqual(findSecrets(c.text));
    // The bytes are scanned only for ASCII text: most of the corpus is, so that path is what ran.
    const ascii = cases.filter((c) => Buffer.byteLength(c.text, "utf8") === c.text.length);
    expect(ascii.length).toBeGreaterThan(cases.length * 0.8);
    // and the ASCII corpus as one text: offsets far into it, many findings per scan
    const all = ascii.map((c) => c.text).join("\n");
    expect(findSecrets(all, Buffer.from(all, "utf8"))).toEqual(findSecrets(all));
  });
});
