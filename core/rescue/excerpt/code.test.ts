import { readFileSync } from "node:fs";
import { buildExcerpt } from "../excerpt";
import { codeDeclarations } from "./code";

const fixture = (rel: string): string => readFileSync(new URL(`../../../tests/fixtures/${rel}`, import.meta.url), "utf8");

/** A TypeScript module of `n` helpers, each with a body, a comment and a signature of its own. */
function tsModule(n: number): string {
  const out = ['import { readFileSync } from "node:fs";', 'import type { Config } from "./config.js";', ""];
  for (let i = 0; i < n; i++) {
    out.push(`/** Helper ${i}: scales its input. */`);
    out.push(`export function helper${i}(value: number, factor = ${i + 2}): number {`);
    out.push(`  if (value < 0) return 0;`);
    out.push(`  const scaled = value * factor;`);
    out.push(`  for (let k = 0; k < ${i % 5}; k++) console.log(k);`);
    out.push(`  return scaled;`);
    out.push("}");
    out.push("");
  }
  return out.join("\n");
}

describe("code excerpts", () => {
  const text = tsModule(400);
  const lines = text.split("\n");
  const excerpt = buildExcerpt(text, "code", 8_000).text;

  it("lists declarations from the omitted middle with their 0-based line numbers and signatures", () => {
    expect(text.length).toBeGreaterThan(80_000);
    expect(excerpt).toMatch(/lines omitted \(lines \d+–\d+\); declarations among them \(0-based line numbers\):/);
    const listed = [...excerpt.matchAll(/^line (\d+): (.*)$/gm)];
    expect(listed.length).toBeGreaterThan(20);
    for (const [, n, shown] of listed) expect(lines[Number(n)]!.startsWith(shown!.replace(/…$/, ""))).toBe(true);
    // Signatures, defaults included, without the opening brace; never a body line.
    expect(listed.every(([, , shown]) => /^export function helper(\d+)\(value: number, factor = \d+\): number$/.test(shown!))).toBe(true);
    expect(excerpt).toMatch(/… \([\d,]+ more declarations\) …/);
  });

  it("still starts with the file's head and ends with its tail", () => {
    expect(excerpt.startsWith('import { readFileSync } from "node:fs";\nimport type { Config }')).toBe(true);
    expect(excerpt).toContain("export function helper399(");
    expect(excerpt.length).toBeLessThanOrEqual(8_000);
  });

  it("finds the declarations of Python, Go, Rust and JVM sources, methods one indent in", () => {
    const py = codeDeclarations(fixture("fetch/rate_limiter.py")).anchors.map((a) => a.text);
    expect(py).toEqual(
      expect.arrayContaining([
        "class Bucket:",
        "class RateLimiter:",
        "    def acquire(self, cost: float = 1.0) -> float:",
        "def limited(limiter: RateLimiter):",
        "async def drain(limiter: RateLimiter, n: int) -> None:",
      ]),
    );
    // Two indents in is a function's own helper, not the file's.
    expect(py.some((l) => l.includes("def inner"))).toBe(false);
    const other = [
      "package main",
      "func Serve(addr string) error {",
      "type Server struct {",
      "pub fn parse(input: &str) -> Result<Ast, Error> {",
      "impl Display for Ast {",
      "public class Ledger {",
      "    public BigDecimal balance(String account) {",
      "    if (x) {",
      "    return total;",
    ].join("\n");
    expect(codeDeclarations(other).anchors.map((a) => a.line)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
