import { builtinText, mcpText, replaceMcpText, splitToolName } from "./toolOutput";

describe("Claude Code tool_response shapes", () => {
  it("reads MCP responses given as a string, a content array or a result object", () => {
    expect(mcpText("plain")).toEqual({ text: "plain", isError: false });
    expect(mcpText([{ type: "text", text: "a" }, { type: "image", data: "x" }, { type: "text", text: "b" }]).text).toBe("a\nb");
    expect(mcpText({ content: [{ type: "text", text: "c" }], isError: true })).toEqual({ text: "c", isError: true });
  });

  it("puts a replacement back in the same shape, keeping non-text items and dropping structured data", () => {
    expect(replaceMcpText("old", "new")).toBe("new");
    expect(replaceMcpText([{ type: "text", text: "old" }, { type: "image", data: "x" }], "new")).toEqual([{ type: "text", text: "new" }, { type: "image", data: "x" }]);
    expect(replaceMcpText({ content: [{ type: "text", text: "old" }], structuredContent: { a: 1 }, isError: false }, "new")).toEqual({ content: [{ type: "text", text: "new" }], isError: false });
  });

  it("takes the text out of built-in tools' responses", () => {
    expect(builtinText({ stdout: "out", stderr: "", interrupted: false })).toBe("out");
    expect(builtinText({ stdout: "out", stderr: "warn" })).toBe("out\nwarn");
    expect(builtinText({ type: "text", file: { filePath: "/a", content: "file body", numLines: 1 } })).toBe("file body");
    expect(builtinText({ result: "page", code: 200 })).toBe("page");
    expect(builtinText({ filenames: ["a", "b"], numFiles: 2 })).toBe(JSON.stringify({ filenames: ["a", "b"], numFiles: 2 }, null, 2));
  });

  it("splits mcp__server__tool names", () => {
    expect(splitToolName("mcp__github__create_issue")).toEqual({ server: "github", tool: "create_issue" });
    expect(splitToolName("Bash")).toEqual({ server: null, tool: "Bash" });
  });
});
