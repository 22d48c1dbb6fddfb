import { fixture, inputFor } from "./fetchTestUtil";
import { runFetch } from "./fetchModes";
import { buildOutline } from "./outline";

describe("code outline", () => {
  it("lists Python top-level symbols and class methods with 0-based lines", () => {
    const src = fixture("rate_limiter.py");
    const out = buildOutline(src, "code").split("\n");
    const lines = src.split("\n");
    expect(out.slice(1)).toEqual([
      `L${lines.indexOf("class Bucket:")} class Bucket`,
      `L${lines.indexOf("class RateLimiter:")} class RateLimiter`,
      `L${lines.findIndex((l) => l.includes("def __init__"))}   method __init__`,
      `L${lines.findIndex((l) => l.includes("def acquire"))}   method acquire`,
      `L${lines.findIndex((l) => l.includes("def _refill"))}   method _refill`,
      `L${lines.indexOf("def limited(limiter: RateLimiter):")} def limited`,
      `L${lines.findIndex((l) => l.startsWith("async def drain"))} def drain`,
    ]);
  });

  it("lists TypeScript declarations, arrow functions and class methods", () => {
    const out = buildOutline(fixture("sessionStore.ts"), "code");
    for (const s of [
      "interface Session",
      "type SessionMap",
      "enum EndReason",
      "class SessionStore",
      "  method open",
      "  method sweep",
      "function isExpired",
      "function touch",
    ]) {
      expect(out).toMatch(new RegExp(`^L\\d+ ${s}$`, "m"));
    }
  });

  it("recognises Go, Rust, Java and C declarations", () => {
    const go = "package main\n\nfunc main() {\n}\n\nfunc (s *Server) Serve(addr string) error {\n}\n\ntype Server struct {\n}\n";
    expect(buildOutline(go, "code").split("\n").slice(1)).toEqual(["L2 func main", "L5 func Serve", "L8 type Server"]);
    const rust = "pub struct Config {\n}\n\nimpl Config {\n    pub fn load() -> Self {}\n}\n\npub(crate) async fn run() {}\n";
    expect(buildOutline(rust, "code")).toMatch(/L0 type Config\nL3 impl Config\nL7 fn run/);
    const java =
      "public class Greeter {\n    private final String name;\n    public String greet(String who) {\n        return name;\n    }\n}\n";
    expect(buildOutline(java, "code").split("\n").slice(1)).toEqual(["L0 class Greeter", "L2   method greet"]);
    const c = "#include <stdio.h>\n\nstatic int add(int a, int b)\n{\n  return a + b;\n}\n\nint main(void) {\n  return add(1, 2);\n}\n";
    expect(buildOutline(c, "code").split("\n").slice(1)).toEqual(["L2 function add", "L7 function main"]);
  });

  it("says when nothing was recognised", () => {
    expect(buildOutline("x = 1\ny = 2\n", "code")).toContain("No top-level declarations recognised");
  });
});

describe("the outline of minified code", () => {
  it("names the functions and classes of a one-line bundle by char offset, which range start_char reads", () => {
    const parts: string[] = ['"use strict";var a=1;'];
    for (let i = 0; i < 3000; i++) parts.push(`function f${i}(x){return x+${i}}`);
    parts.push("class Store extends Base{get(){return 1}}", "module.exports={f1:f1};");
    const bundle = parts.join("");
    const outline = buildOutline(bundle, "code");
    expect(outline).toMatch(/^Code outline: 1 lines, 3,001 symbols/);
    expect(outline).toContain("(minified lines: 3,001 declarations in them, at @<char offset>; read one with range start_char)");
    const at = bundle.indexOf("function f7(");
    expect(outline).toContain(`L0 @${at} function f7`);
    const read = runFetch("range", {
      ...inputFor(bundle, "code", { start_char: at, count_chars: 12 }),
      limits: { maxChars: 4000, fullMaxChars: 50_000 },
    });
    expect(read.text.split("\n")[1]).toBe("function f7(");
    expect(outline).toContain("… 2,801 more symbols; grep for them by name");
    expect(outline).not.toContain("No top-level declarations recognised");
    const cls = buildOutline(`${"x".repeat(500)};class Store extends Base{}`, "code");
    expect(cls).toContain(`L0 @501 class Store`);
  });
});
