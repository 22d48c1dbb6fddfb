/**
 * What the model sees when its fetch arguments are huge or missing, through the real engine:
 * a clear sentence, never an internal error quoting its input back, and every answer within
 * `fetch.maxChars` however long the query, pattern or expression it echoes.
 */
import { parseConfig } from "../config/config";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { createEngine } from "../engine/engine";

const MB = 1024 * 1024;

/** About `mb` MiB of build log with an error line every 97 lines. */
function buildLog(mb: number): string {
  const parts: string[] = [];
  for (let i = 0, n = 0; n < mb * MB; i++) {
    const line = i % 97 === 5 ? `${i} ERROR upload of chunk ${i} failed` : `${i} INFO compiled src/file${i}.ts`;
    parts.push(line);
    n += line.length + 1;
  }
  return parts.join("\n") + "\n";
}

/** The checks every answer here must pass: one sentence or a capped slice, no internal error text. */
function expectBounded(text: string, maxChars: number): void {
  expect(text.length).toBeLessThanOrEqual(maxChars);
  expect(text).not.toMatch(/Invalid regular expression|Stack overflow|Maximum call stack|failed on blob/);
}

describe("rescuer_fetch with oversized or missing arguments", () => {
  const home = tempHome();
  afterAll(() => home.cleanup());
  const logger = memoryLogger();
  const e = createEngine({ home: home.path, config: parseConfig({}), clock: new FakeClock(), logger });
  afterAll(() => e.close());
  const small = e.transformToolResult({ sessionId: "s", tool: "build", text: buildLog(0.05) }).blobId!;
  const json = JSON.stringify({ items: Array.from({ length: 400 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"] })) });
  const data = e.transformToolResult({ sessionId: "s", tool: "list", text: json }).blobId!;
  const fetch = (id: string, mode: unknown, args: Record<string, unknown> = {}) => e.fetch({ sessionId: "s", id, mode, args });

  it("refuses a search query over 1,000 chars with a sentence saying what to do, on a big blob not yet indexed too", () => {
    // Stored last, with nothing awaited since: search answers from a scan, whose regex a 1 MB word overflowed.
    const big = e.transformToolResult({ sessionId: "s", tool: "build", text: buildLog(2) }).blobId!;
    for (const [id, query] of [
      [small, "upload ".repeat(1_715)],
      [small, "x".repeat(200_000)],
      [big, "x".repeat(1_000_000)],
    ] as const) {
      const a = fetch(id, "search", { query });
      expect(a.isError).toBe(true);
      expect(a.text).toBe(
        `The argument query of mode search is ${query.trim().length.toLocaleString("en-US")} chars long, over the 1,000-char limit; search with a few keywords, or grep for an exact phrase.`,
      );
    }
    expect(JSON.stringify(logger.entries)).not.toContain("x".repeat(1_000));
  });

  it("echoes a long query, pattern or expression short, so the hits keep the room", () => {
    const query = Array.from({ length: 60 }, (_, i) => `upload${i}failed`).join(" ");
    const found = fetch(small, "search", { query: `upload ${query}` }).text;
    expectBounded(found, 4_000);
    expect(found.split("\n")[0]!.length).toBeLessThan(320);
    expect(found).toMatch(/^1\. lines \d+–\d+ .*upload/m);

    const pattern = `(${Array.from({ length: 90 }, (_, i) => `nomatch${i}`).join("|")})`;
    for (const mode of ["grep", "chain"]) {
      const none = fetch(small, mode, { pattern }).text;
      expect(none).toMatch(/^No line matches \/\(nomatch0\|.*…\/i in [0-9a-f]{12} \([\d,]+ lines searched\)\.$/);
      expect(none.length).toBeLessThan(200);
      const hits = fetch(small, mode, { pattern: `${pattern.slice(0, -1)}|ERROR)` }).text;
      expect(hits.split("\n")[0]!.length).toBeLessThan(200);
    }

    const expression = `items[?${Array.from({ length: 60 }, (_, i) => `id == \`${i}\``).join(" || ")}].name`;
    expect(expression.length).toBeLessThanOrEqual(1_000);
    const q = fetch(data, "query", { expression }).text;
    expect(q.split("\n")[0]).toMatch(/^query "items\[\?id == `0` \|\| .*…" on [0-9a-f]{12} gives an array of 60 \(/);
    expect(q.split("\n")[0]!.length).toBeLessThan(200);
  });

  it("keeps every answer within the smallest fetch.maxChars, whatever it echoes", async () => {
    const h = tempHome();
    const tight = createEngine({ home: h.path, config: parseConfig({ fetch: { maxChars: 200 } }), clock: new FakeClock(), logger });
    try {
      const log = tight.transformToolResult({ sessionId: "s", tool: "build", text: buildLog(0.05) }).blobId!;
      const list = tight.transformToolResult({ sessionId: "s", tool: "list", text: json }).blobId!;
      const long = (word: string) => Array.from({ length: 90 }, (_, i) => `${word}${i}`).join(" ");
      const asks: [string, string, Record<string, unknown>][] = [
        [log, "search", { query: `${long("upload")} upload` }],
        [log, "search", { query: long("absent") }],
        [log, "grep", { pattern: `(${long("ERROR").replaceAll(" ", "|")})` }],
        [log, "chain", { pattern: `(${long("ERROR").replaceAll(" ", "|")})`, context: 0 }],
        [list, "query", { expression: `items[?${Array.from({ length: 60 }, (_, i) => `id == \`${i}\``).join(" || ")}]` }],
      ];
      for (const [id, mode, args] of asks) {
        const a = tight.fetch({ sessionId: "s", id, mode, args });
        expect({ mode, isError: a.isError }).toEqual({ mode, isError: false });
        expectBounded(a.text, 200);
      }
    } finally {
      await tight.close();
      h.cleanup();
    }
  });

  it("says that mode is required and lists the modes, and quotes an unknown one short", () => {
    const modes = "stat, outline, search, grep, chain, range, query, full";
    for (const mode of [undefined, null, "", "  "]) {
      const a = fetch(small, mode);
      expect({ isError: a.isError, text: a.text }).toEqual({
        isError: true,
        text: `The argument mode is required: give one of ${modes}.`,
      });
    }
    const odd = fetch(small, "peek".repeat(50_000));
    expect(odd.isError).toBe(true);
    expect(odd.text).toMatch(new RegExp(`^Unknown mode "[a-z]+…": the valid modes are ${modes}\\.$`));
    expect(odd.text.length).toBeLessThan(200);
  });

  it("refuses a JMESPath expression too long or too deeply nested with a sentence saying what to do", () => {
    const deep = `${"[".repeat(3_000)}items${"]".repeat(3_000)}`;
    expect(fetch(data, "query", { expression: deep })).toMatchObject({
      isError: true,
      text: "The argument expression of mode query is 6,005 chars long, over the 1,000-char limit; select a narrower path, or split it into several queries.",
    });
    const nested = `${"(".repeat(300)}items${")".repeat(300)}`;
    expect(fetch(data, "query", { expression: nested })).toMatchObject({
      isError: true,
      text: "The expression nests brackets 300 levels deep, over the limit of 64; write it with fewer nested levels, or split it into several queries.",
    });
    // Brackets inside quoted names and literals are not nesting.
    const quoted = `items[?name == '${"[".repeat(100)}'] | length(@)`;
    expect(fetch(data, "query", { expression: quoted }).text).toMatch(/gives a number/);
  });
});
