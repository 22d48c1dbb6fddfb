/**
 * Claude Code checks a PostToolUse `updatedToolOutput` against the tool's own output schema and
 * keeps the original when it does not match (a bare string for Bash is rejected). So each built-in
 * tool gets a view: the text its output holds, and how to put a replacement back in that shape.
 * The shapes are those Claude Code 2.1.197 sends (fixtures in tests/fixtures/claude-code/).
 */
import { countLines } from "../text/lines";

type Obj = Record<string, unknown>;

/** A built-in tool's output taken apart. */
export interface OutputView {
  /** What the tool produced, as the text Spillway stores. */
  text: string;
  /** Claude Code kept only the head of a large output and saved the whole of it to this file. */
  persisted?: { path: string; bytes: number };
  /** The same output with `replacement` where the text was: what PostToolUse answers. */
  replace(replacement: string): unknown;
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === "string";

function bash(r: Obj): OutputView | null {
  if (!isStr(r.stdout) || r.isImage === true) return null;
  const stderr = isStr(r.stderr) ? r.stderr : "";
  const text = stderr ? `${r.stdout}\n${stderr}` : r.stdout;
  const persisted =
    isStr(r.persistedOutputPath) && typeof r.persistedOutputSize === "number"
      ? { path: r.persistedOutputPath, bytes: r.persistedOutputSize }
      : undefined;
  return {
    text,
    persisted,
    replace(t) {
      // Without the persisted-file fields Claude Code gives the model stdout itself, not its own
      // 2 KB <persisted-output> preview of it (which would cut the handle).
      const out: Obj = { ...r, stdout: t, stderr: "" };
      delete out.persistedOutputPath;
      delete out.persistedOutputSize;
      return out;
    },
  };
}

function read(r: Obj): OutputView | null {
  const file = r.file;
  if (!isObj(file)) return null;
  if (r.type === "text" && isStr(file.content)) {
    return { text: file.content, replace: (t) => ({ ...r, file: { ...file, content: t, numLines: countLines(t) } }) };
  }
  if (r.type === "notebook" && Array.isArray(file.cells)) {
    // Stored as JSON, so query and outline work on the cells; the model reads the handle in one cell.
    return {
      text: JSON.stringify(file.cells, null, 2),
      replace: (t) => ({ ...r, file: { ...file, cells: [{ cellType: "markdown", source: t, cell_id: "spillway" }] } }),
    };
  }
  return null; // images, PDFs, unchanged files: nothing textual to rescue
}

/** Claude Code joins a file list with newlines, so a replacement split on them reads back as itself. */
const asLines = (t: string) => t.split("\n");

function grep(r: Obj): OutputView | null {
  if (isStr(r.content) && (r.mode === "content" || r.mode === "count")) {
    return { text: r.content, replace: (t) => ({ ...r, content: t, ...("numLines" in r ? { numLines: countLines(t) } : {}) }) };
  }
  return fileList(r);
}

function fileList(r: Obj): OutputView | null {
  if (!Array.isArray(r.filenames) || !r.filenames.every(isStr)) return null;
  return { text: r.filenames.join("\n"), replace: (t) => ({ ...r, filenames: asLines(t) }) };
}

function webFetch(r: Obj): OutputView | null {
  if (!isStr(r.result)) return null;
  return { text: r.result, replace: (t) => ({ ...r, result: t }) };
}

function webSearch(r: Obj): OutputView | null {
  if (!Array.isArray(r.results)) return null;
  const parts = r.results.map((x) =>
    isStr(x) ? x : isObj(x) && Array.isArray(x.content) ? `Links: ${JSON.stringify(x.content)}` : JSON.stringify(x),
  );
  return { text: parts.join("\n\n"), replace: (t) => ({ ...r, results: [t] }) };
}

function agent(r: Obj): OutputView | null {
  if (!Array.isArray(r.content)) return null;
  const blocks = r.content.filter(isObj);
  if (blocks.some((b) => b.type !== "text" || !isStr(b.text))) return null;
  return { text: blocks.map((b) => b.text as string).join("\n"), replace: (t) => ({ ...r, content: [{ type: "text", text: t }] }) };
}

/** A tool Spillway has no view for: replaced only where one string field holds nearly all of it. */
function dominantString(r: Obj): OutputView | null {
  let total = 0;
  let best: { key: string; value: string } | null = null;
  for (const [key, value] of Object.entries(r)) {
    if (!isStr(value)) continue;
    total += value.length;
    if (!best || value.length > best.value.length) best = { key, value };
  }
  if (!best || best.value.length < total * 0.9 || best.value.length < JSON.stringify(r).length * 0.9) return null;
  const { key } = best;
  return { text: best.value, replace: (t) => ({ ...r, [key]: t }) };
}

const VIEWS: Record<string, (r: Obj) => OutputView | null> = {
  Bash: bash,
  Read: read,
  Grep: grep,
  Glob: fileList,
  WebFetch: webFetch,
  WebSearch: webSearch,
  Agent: agent,
  Task: agent, // the name of Agent before Claude Code 2.1
};

/** The view of a built-in tool's `tool_response`, or null when it holds nothing Spillway can replace in its shape. */
export function viewBuiltinOutput(tool: string, response: unknown): OutputView | null {
  if (isStr(response)) return { text: response, replace: (t) => t };
  if (!isObj(response)) return null;
  const view = VIEWS[tool];
  return view ? view(response) : dominantString(response);
}
