import { describe, expect, it } from "vitest";
import { fieldsOf, getAt, setAt } from "./schemaWalk";

const schema = {
  type: "object",
  properties: {
    rescue: {
      type: "object",
      properties: {
        thresholdChars: { type: "integer", minimum: 200, maximum: 9007199254740991, default: 12000 },
        excludeTools: { type: "array", items: { type: "string" } },
        toolThresholds: { type: "object", additionalProperties: { type: "integer" } },
      },
    },
    sensitivity: { type: "object", properties: { mode: { enum: ["mask", "audit", "off"], default: "mask" } } },
    store: { type: "object", properties: { ttlHours: { type: "number", exclusiveMinimum: 0, default: 72 } } },
    server: { type: "object", properties: { host: { type: "string", const: "127.0.0.1" } } },
    mcpServers: { type: "object", additionalProperties: { anyOf: [] } },
  },
};

describe("config form fields from the JSON Schema", () => {
  it("maps every kind of setting to a control", () => {
    const f = fieldsOf(schema);
    const rescue = f[0]!;
    expect(rescue.kind).toBe("group");
    if (rescue.kind !== "group") return;
    expect(rescue.fields.map((x) => x.kind)).toEqual(["number", "list", "json"]);
    expect(rescue.fields[0]).toMatchObject({ integer: true, min: 200, max: undefined, def: 12000 });
    expect(f[1]).toMatchObject({ kind: "group", fields: [{ kind: "enum", options: ["mask", "audit", "off"] }] });
    expect(f[2]).toMatchObject({ fields: [{ kind: "number", integer: false, min: 0, exclusiveMin: true }] });
    expect(f[3]).toMatchObject({ fields: [{ kind: "enum", options: ["127.0.0.1"] }] });
    expect(f[4]).toMatchObject({ kind: "json", path: ["mcpServers"] });
  });

  it("reads and writes nested values without mutating", () => {
    const v = { rescue: { thresholdChars: 12000 } };
    const next = setAt(v, ["rescue", "thresholdChars"], 9000);
    expect(getAt(next, ["rescue", "thresholdChars"])).toBe(9000);
    expect(v.rescue.thresholdChars).toBe(12000);
    expect(getAt(setAt({}, ["a", "b"], 1), ["a", "b"])).toBe(1);
  });
});
