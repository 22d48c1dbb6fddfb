import { lazySchemaValidator } from "./schemaValidator";

describe("the lazy schema validator", () => {
  it("validates like Ajv once it runs", () => {
    const check = lazySchemaValidator().getValidator<{ n: number }>({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });
    expect(check({ n: 1 })).toMatchObject({ valid: true, data: { n: 1 } });
    const bad = check({ n: "one" });
    expect(bad.valid).toBe(false);
    expect(bad.errorMessage).toMatch(/must be number/);
  });
});
