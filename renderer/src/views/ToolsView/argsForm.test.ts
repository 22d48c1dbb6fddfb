import { describe, expect, it } from "vitest";
import { argsOf, fieldsOf } from "./argsForm";

const schema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File to read" },
    head: { type: "integer" },
    ratio: { type: "number", default: 0.5 },
    follow: { type: "boolean" },
    mode: { type: "string", enum: ["text", "base64"] },
    edits: { type: "array", items: { type: "object" } },
  },
  required: ["path", "edits"],
};

describe("a tool's arguments from its input schema", () => {
  it("makes one field per property, with its kind, default and whether it is required", () => {
    const f = fieldsOf(schema);
    expect(f.map((x) => [x.name, x.kind, x.required])).toEqual([
      ["path", "string", true],
      ["head", "integer", false],
      ["ratio", "number", false],
      ["follow", "boolean", false],
      ["mode", "enum", false],
      ["edits", "json", true],
    ]);
    expect(f.find((x) => x.name === "ratio")!.initial).toBe("0.5");
    expect(f.find((x) => x.name === "mode")!.options).toEqual(["text", "base64"]);
  });

  it("turns the fields into arguments, leaving out empty optional ones, and names the field that does not parse", () => {
    const f = fieldsOf(schema);
    expect(argsOf(f, { path: "/tmp/a", head: "10", edits: '[{"old":"a"}]', follow: "true" })).toEqual({
      ok: true,
      args: { path: "/tmp/a", head: 10, ratio: 0.5, follow: true, edits: [{ old: "a" }] },
    });
    expect(argsOf(f, { path: "/tmp/a", head: "1.5", edits: "[]" })).toMatchObject({ ok: false, field: "head" });
    expect(argsOf(f, { path: "/tmp/a", edits: "[oops" })).toMatchObject({ ok: false, field: "edits" });
    expect(argsOf(f, { path: "/tmp/a" })).toMatchObject({ ok: false, field: "edits", message: "edits is required." });
  });
});
