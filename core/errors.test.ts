import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ErrorCode, errorBodyOf, httpStatusOf, jsonRpcCodeOf, SpillwayError } from "./errors";
import { memoryLogger } from "./runtime";

const ROOT = join(import.meta.dirname, "..");

function productText(dir: string): string {
  let out = "";
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out += productText(p);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && p !== join(ROOT, "core", "errors.ts")) out += readFileSync(p, "utf8");
  }
  return out;
}

describe("the one error type", () => {
  it("has no code that nothing uses", () => {
    const text = ["core", "electron", "renderer"].map((d) => productText(join(ROOT, d))).join("\n");
    const unused = Object.entries(ErrorCode).filter(([name, value]) => !text.includes(`ErrorCode.${name}`) && !text.includes(`"${value}"`));
    expect(unused).toEqual([]);
  });

  it("maps every code to an HTTP status and a JSON-RPC code", () => {
    for (const code of Object.values(ErrorCode)) {
      expect(httpStatusOf(code)).toBeGreaterThanOrEqual(400);
      expect(jsonRpcCodeOf(code)).toBeLessThan(-32000);
    }
    expect(httpStatusOf(ErrorCode.TooLarge)).toBe(413);
    expect(jsonRpcCodeOf(ErrorCode.BadArgument)).toBe(-32602);
  });

  it("answers a coded error with its sentence, and logs anything else as internal", () => {
    const log = memoryLogger();
    expect(errorBodyOf(new SpillwayError(ErrorCode.BadConfig, "bad key", { path: "rescue.x" }), log, "config.set")).toEqual({
      code: "bad_config",
      message: "bad key",
      path: "rescue.x",
    });
    expect(log.entries).toEqual([]);
    expect(errorBodyOf(new TypeError("boom"), log, "blobs.get")).toEqual({
      code: "internal",
      message: "blobs.get failed inside Spillway: boom",
    });
    expect(log.entries).toHaveLength(1);
  });
});
