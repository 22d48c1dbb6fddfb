import { runFetch } from "./fetchModes";
import { expectSentence, inputFor } from "./fetchTestUtil";

const text = Array.from({ length: 24_003 }, (_, i) => `row ${i}: ${"x".repeat(i % 50)}`).join("\n") + "\n";
const range = (args: Record<string, unknown>, content = text, maxChars = 4000) =>
  runFetch("range", { ...inputFor(content, "text", args), limits: { maxChars, fullMaxChars: 50_000 } });

describe("range", () => {
  it("serves lines verbatim and names the span and the total", () => {
    const a = range({ start: 100, count: 5 });
    const [head, ...body] = a.text.split("\n");
    expect(head).toBe("lines 100–104 of 24,003 in blob-test:");
    expect(body).toEqual(text.split("\n").slice(100, 105));
    expect(a.truncated).toBe(false);
    expect(a.servedChars).toBe(body.join("\n").length);
  });

  it("cuts at maxChars on a line boundary and says where to continue", () => {
    const a = range({ start: 100, count: 1000 });
    expect(a.text.length).toBeLessThanOrEqual(4000);
    expect(a.truncated).toBe(true);
    const last = Number(/^lines 100–(\d+) of 24,003/.exec(a.text)![1]);
    expect(a.text).toContain(`continue with range start=${last + 1}]`);
    const next = range({ start: last + 1, count: 1 });
    expect(next.text.split("\n")[1]).toBe(`row ${last + 1}: ${"x".repeat((last + 1) % 50)}`);
  });

  it("serves a char span with its lines, continuing by chars", () => {
    const one = "a".repeat(10_000) + "TARGET" + "b".repeat(10_000);
    const a = range({ start_char: 9_990, count_chars: 30 }, one);
    expect(a.text).toBe(`chars 9990–10019 of 20,006 in blob-test (line 0):\n${one.slice(9990, 10020)}`);
    const b = range({ start_char: 0 }, one);
    expect(b.truncated).toBe(true);
    const next = Number(/start_char=(\d+)/.exec(b.text)![1]);
    expect(b.text.split("\n")[1]).toBe(one.slice(0, next));
  });

  it("never splits an emoji: a char range starting or ending inside one takes all of it, and paging moves on", () => {
    const content = "party time: 🎉🎉 done, and more text after it";
    const at = content.indexOf("🎉");
    const first = range({ start_char: at, count_chars: 1 }, content);
    expect(first.text).toBe(`chars ${at}–${at + 1} of ${content.length} in blob-test (line 0):\n🎉`);
    expect(first.truncated).toBe(false);
    const inside = range({ start_char: at + 1, count_chars: 1 }, content);
    expect(inside.text.split("\n")[1]).toBe("🎉");
    expect(inside.text).not.toMatch(/[\ud800-\udfff](?![\udc00-\udfff])/u);
    // Paging by chars with a cap that falls inside a pair still reaches the end, every char once.
    const emojis = "🎉".repeat(3000);
    let from = 0;
    let joined = "";
    for (let i = 0; i < 10 && from < emojis.length; i++) {
      const page = range({ start_char: from }, emojis, 1001);
      joined += page.text.slice(page.text.indexOf("\n") + 1).replace(/\n\[cut at .*\]$/, "");
      const next = /start_char=(\d+)\]$/.exec(page.text);
      from = next ? Number(next[1]) : emojis.length;
    }
    expect(joined).toBe(emojis);
  });

  it("serves the start of a line longer than the cap and continues by chars", () => {
    const content = "short\n" + "y".repeat(9000) + "\nend";
    const a = range({ start: 1 }, content);
    expect(a.text.split("\n")[0]).toMatch(/^line 1 of 3 in blob-test is 9,000 chars long; chars 6–\d+ \(of 9,010\) follow:$/);
    expect(a.text).toMatch(/continue with range start_char=\d+\]$/);
    expect(a.text.length).toBeLessThanOrEqual(4000);
  });

  it("answers out-of-range starts with a sentence", () => {
    expectSentence(range({ start: 24_003 }), /start of mode range is 24003, past the last line/);
    expectSentence(range({ start_char: text.length }), /start_char of mode range/);
    expectSentence(range({}), /needs the argument start/);
    expect(range({ start: 0 }, "").text).toBe("Blob blob-test is empty (0 lines, 0 chars).");
  });
});
