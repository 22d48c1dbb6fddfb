import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ConfigForm } from "./ConfigForm";
import { fieldsOf } from "./schemaWalk";

const schema = {
  type: "object",
  properties: {
    rescue: { type: "object", properties: { thresholdChars: { type: "integer", minimum: 200, default: 12000 } } },
    sensitivity: { type: "object", properties: { mode: { enum: ["mask", "audit", "off"] } } },
    mcpServers: { type: "object", additionalProperties: {} },
  },
};

describe("ConfigForm", () => {
  const render = (issues: { path: string; message: string }[] = []) =>
    renderToStaticMarkup(
      <ConfigForm
        fields={fieldsOf(schema)}
        value={{ rescue: { thresholdChars: 9000 }, sensitivity: { mode: "audit" }, mcpServers: { fs: { command: "npx" } } }}
        issues={issues}
        onChange={() => {}}
      />,
    );

  it("labels every control with its key and shows the current values", () => {
    const html = render();
    expect(html).toContain('<label for="cfg-rescue-thresholdChars"');
    expect(html).toMatch(/id="cfg-rescue-thresholdChars"[^>]*min="200"[^>]*value="9000"|value="9000"[^>]*id="cfg-rescue-thresholdChars"/);
    expect(html).toContain('<option value="audit" selected="">audit</option>');
    expect(html).toContain("&quot;command&quot;: &quot;npx&quot;");
  });

  it("marks the field an issue names, with the message beside it", () => {
    const html = render([{ path: "rescue.thresholdChars", message: "Too small: expected number to be >=200" }]);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('id="cfg-rescue-thresholdChars-err"');
    expect(html).toContain("Too small");
  });
});
