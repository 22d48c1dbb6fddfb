import { readFileSync } from "node:fs";
import { mcpSavedOutput, mcpText, replaceMcpText, splitToolName } from "./toolOutput";

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../tests/fixtures/claude-code/post-${name}.json`, import.meta.url), "utf8"));

describe("Claude Code tool_response shapes of MCP tools", () => {
  it("reads the content array Claude Code 2.1.197 sends, and the JSON string it sends for structured results", () => {
    const text = fixture("mcp-text").tool_response;
    expect(Array.isArray(text)).toBe(true);
    expect(mcpText(text).text).toMatch(/^\[cap\] step 0: compiled/);
    const structured = fixture("mcp-structured").tool_response;
    expect(typeof structured).toBe("string");
    expect(JSON.parse(mcpText(structured).text).items).toHaveLength(3);
    expect(replaceMcpText(structured, "new")).toBe("new");
  });

  it("recognises the message Claude Code sends instead of an MCP result over its token limit, with the saved file and size", () => {
    const saved = fixture("mcp-saved").tool_response as string;
    expect(mcpSavedOutput(saved)).toEqual({
      path: expect.stringMatching(/^\/tmp\/claude-capture\/.*\/tool-results\/mcp-fixture-big_log-\d+\.txt$/),
      chars: 103_596,
    });
    expect(mcpSavedOutput(fixture("mcp-text").tool_response)).toBeNull();
    expect(mcpSavedOutput("Error: result exceeds maximum allowed tokens.")).toBeNull();
  });

  it("reads MCP responses given as a string, a content array or a result object", () => {
    expect(mcpText("plain")).toEqual({ text: "plain", isError: false });
    expect(
      mcpText([
        { type: "text", text: "a" },
        { type: "image", data: "x" },
        { type: "text", text: "b" },
      ]).text,
    ).toBe("a\nb");
    expect(mcpText({ content: [{ type: "text", text: "c" }], isError: true })).toEqual({ text: "c", isError: true });
  });

  it("puts a replacement back in the same shape, keeping non-text items and dropping structured data", () => {
    expect(replaceMcpText("old", "new")).toBe("new");
    expect(
      replaceMcpText(
        [
          { type: "text", text: "old" },
          { type: "image", data: "x" },
        ],
        "new",
      ),
    ).toEqual([
      { type: "text", text: "new" },
      { type: "image", data: "x" },
    ]);
    expect(replaceMcpText({ content: [{ type: "text", text: "old" }], structuredContent: { a: 1 }, isError: false }, "new")).toEqual({
      content: [{ type: "text", text: "new" }],
      isError: false,
    });
  });

  it("splits mcp__server__tool names", () => {
    expect(splitToolName("mcp__github__create_issue")).toEqual({ server: "github", tool: "create_issue" });
    expect(splitToolName("Bash")).toEqual({ server: null, tool: "Bash" });
  });
});
