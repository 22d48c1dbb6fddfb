import { fixture } from "./fetchTestUtil";
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
