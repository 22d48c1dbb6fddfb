/**
 * The views against the payloads Claude Code 2.1.197 really sent (tests/fixtures/claude-code,
 * captured by tests/hosts/claude/capturePayloads.ts). That Claude Code accepts the replacements is
 * checked end to end in tests/hosts/claude/.
 */
import { readFileSync } from "node:fs";
import { serviceLog } from "../../tests/hosts/claude/projectFiles";
import { viewBuiltinOutput, type OutputView } from "./builtinOutput";

type Payload = { tool_name: string; tool_response: any };
const fixture = (name: string): Payload =>
  JSON.parse(readFileSync(new URL(`../../tests/fixtures/claude-code/post-${name}.json`, import.meta.url), "utf8"));
const HANDLE = "[spillway: output of X stored as 0123456789ab — 9 chars, 2 lines, text]\nThis is a PREVIEW, NOT the full output.";

function view(name: string): { p: Payload; v: OutputView } {
  const p = fixture(name);
  const v = viewBuiltinOutput(p.tool_name, p.tool_response);
  if (!v) throw new Error(`no view for ${name}`);
  return { p, v };
}

/** Every key of `a` is in `b` with a value of the same JSON type (arrays: element types seen in `a`). */
function expectSameShape(a: unknown, b: unknown, path = "$", dropped: string[] = []): void {
  const type = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  expect(type(b), path).toBe(type(a));
  if (type(a) === "object") {
    for (const k of Object.keys(a as object)) {
      if (dropped.includes(k)) continue;
      expect(b as object, `${path}.${k}`).toHaveProperty([k]);
      expectSameShape((a as any)[k], (b as any)[k], `${path}.${k}`);
    }
    for (const k of Object.keys(b as object)) expect(a as object, `${path}.${k} is new`).toHaveProperty([k]);
  } else if (type(a) === "array" && (a as unknown[]).length > 0) {
    const seen = new Set((a as unknown[]).map(type));
    for (const x of b as unknown[]) expect(seen.has(type(x)), `${path}[] holds ${type(x)}`).toBe(true);
  }
}

describe("the output views of Claude Code's built-in tools", () => {
  it("Bash: stdout with stderr, replaced in stdout with stderr emptied", () => {
    const { p, v } = view("bash");
    expect(v.text).toBe("out\nerr");
    expect(v.persisted).toBeUndefined();
    const r = v.replace(HANDLE) as any;
    expectSameShape(p.tool_response, r);
    expect(r).toMatchObject({ stdout: HANDLE, stderr: "", interrupted: false });
  });

  it("Bash over 30,000 chars: names the persisted file, and the replacement drops it so the model reads stdout", () => {
    const { p, v } = view("bash-persisted");
    expect(p.tool_response.stdout).toHaveLength(30_000);
    expect(v.persisted).toEqual({ path: p.tool_response.persistedOutputPath, bytes: 228_894 });
    const r = v.replace(HANDLE) as any;
    expectSameShape(p.tool_response, r, "$", ["persistedOutputPath", "persistedOutputSize"]);
    expect(r.persistedOutputPath).toBeUndefined();
    expect(r.persistedOutputSize).toBeUndefined();
    expect(r.stdout).toBe(HANDLE);
  });

  it("Read of a text file: file.content, with numLines following the replacement", () => {
    const { p, v } = view("read-text");
    expect(v.text).toBe(serviceLog());
    const r = v.replace(HANDLE) as any;
    expectSameShape(p.tool_response, r);
    expect(r.file).toMatchObject({
      content: HANDLE,
      numLines: 2,
      filePath: p.tool_response.file.filePath,
      totalLines: p.tool_response.file.totalLines,
    });
  });

  it("Read of a notebook: the cells as JSON, replaced by one markdown cell", () => {
    const { p, v } = view("read-notebook");
    expect(JSON.parse(v.text)).toEqual(p.tool_response.file.cells);
    const r = v.replace(HANDLE) as any;
    expectSameShape(p.tool_response, r);
    expect(r.file.cells).toEqual([{ cellType: "markdown", source: HANDLE, cell_id: "spillway" }]);
  });

  it("Grep in each output mode", () => {
    const content = view("grep-content");
    expect(content.v.text.split("\n")).toHaveLength(40);
    expect(content.v.text).toContain("// TODO item 3");
    const rc = content.v.replace(HANDLE) as any;
    expectSameShape(content.p.tool_response, rc);
    expect(rc).toMatchObject({ mode: "content", content: HANDLE, numLines: 2 });

    const count = view("grep-count");
    expect(count.v.text).toMatch(/module\d\.ts:1/);
    expect((count.v.replace(HANDLE) as any).content).toBe(HANDLE);

    const files = view("grep-files");
    expect(files.v.text.split("\n").sort()).toEqual(Array.from({ length: 40 }, (_, i) => `src/module${i}.ts`).sort());
    const rf = files.v.replace(HANDLE) as any;
    expectSameShape(files.p.tool_response, rf);
    // Claude Code shows the list joined by newlines: the handle reads back whole.
    expect(rf.filenames.join("\n")).toBe(HANDLE);
    expect(rf.numFiles).toBe(40);
  });

  it("Glob: the file list, replaced line by line", () => {
    const { p, v } = view("glob");
    expect(v.text.split("\n")).toHaveLength(40);
    const r = v.replace(HANDLE) as any;
    expectSameShape(p.tool_response, r);
    expect(r.filenames.join("\n")).toBe(HANDLE);
  });

  it("WebFetch: the result", () => {
    const { p, v } = view("webfetch");
    expect(v.text).toBe("The scheduler crash was fixed.");
    const r = v.replace(HANDLE) as any;
    expectSameShape(p.tool_response, r);
    expect(r).toMatchObject({ result: HANDLE, code: 200, url: p.tool_response.url });
  });

  it("WebSearch: links and text, replaced by one text result", () => {
    const { p, v } = view("websearch");
    expect(v.text).toContain("https://example.com/notes/2");
    expect(v.text).toContain("Two pages of release notes.");
    const r = v.replace(HANDLE) as any;
    expectSameShape(p.tool_response, r);
    expect(r.results).toEqual([HANDLE]);
  });

  it("Agent: the subagent's text blocks, keeping its id and usage", () => {
    const { p, v } = view("agent");
    expect(v.text).toBe("The log shows 1,500 requests, all INFO.");
    const r = v.replace(HANDLE) as any;
    expectSameShape(p.tool_response, r);
    expect(r.content).toEqual([{ type: "text", text: HANDLE }]);
    expect(r.agentId).toBe(p.tool_response.agentId);
    expect(viewBuiltinOutput("Task", p.tool_response)?.text).toBe(v.text);
  });

  it("leaves images and outputs without one dominant text alone; a tool it does not know is replaced in its one text field", () => {
    expect(viewBuiltinOutput("Bash", { stdout: "iVBOR…", stderr: "", interrupted: false, isImage: true })).toBeNull();
    expect(viewBuiltinOutput("Read", { type: "image", file: { base64: "iVBOR", type: "image/png", originalSize: 5 } })).toBeNull();
    expect(viewBuiltinOutput("Grep", { mode: "files_with_matches", filenames: [1, 2] })).toBeNull();
    expect(viewBuiltinOutput("Mystery", { a: "x".repeat(100), b: "y".repeat(100) })).toBeNull();
    const other = viewBuiltinOutput("TaskOutput", { task_id: "t1", output: "z".repeat(5_000), status: "done" });
    expect(other?.text).toBe("z".repeat(5_000));
    expect(other?.replace(HANDLE)).toEqual({ task_id: "t1", output: HANDLE, status: "done" });
    expect(viewBuiltinOutput("Future", "plain text")?.replace(HANDLE)).toBe(HANDLE);
  });
});
