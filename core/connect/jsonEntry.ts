/**
 * Merging one entry into a JSON config file (Gemini CLI settings.json, opencode.json, Cursor's
 * mcp.json): the entry's keys we set replace theirs, the user's other keys (in the entry and
 * everywhere else) stay, and the file keeps its indentation. A file that is not plain JSON
 * (comments, trailing commas) is refused rather than rewritten without its comments.
 */
import { ErrorCode, SpillwayError } from "../errors";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function indentOf(doc: string): string | number {
  const m = /\n([ \t]+)\S/.exec(doc);
  return m ? m[1]! : 2;
}

function parseRoot(doc: string | undefined, fileName: string): Json {
  let root: unknown = {};
  if (doc !== undefined && doc.trim() !== "") {
    try {
      root = JSON.parse(doc);
    } catch {
      throw new SpillwayError(
        ErrorCode.BadConfig,
        `${fileName} is not plain JSON (comments or trailing commas?); it was left as it is: merge the snippet by hand.`,
      );
    }
  }
  if (!isObject(root)) throw new SpillwayError(ErrorCode.BadConfig, `${fileName} does not hold a JSON object; it was left as it is.`);
  return root;
}

/** Sets `path` (e.g. ["mcpServers", "spillway"]) to `entry`, merged over an existing object there. */
export function setJsonEntry(doc: string | undefined, path: string[], entry: Json, fileName = "the file"): string {
  const root = parseRoot(doc, fileName);
  let at: Json = root;
  for (const [i, key] of path.slice(0, -1).entries()) {
    const next = at[key] ?? {};
    if (!isObject(next))
      throw new SpillwayError(
        ErrorCode.BadConfig,
        `"${path.slice(0, i + 1).join(".")}" in ${fileName} is not an object; it was left as it is.`,
      );
    at[key] = next;
    at = next;
  }
  const last = path.at(-1)!;
  const existing = at[last];
  at[last] = isObject(existing) ? { ...existing, ...entry } : entry;
  return JSON.stringify(root, null, doc ? indentOf(doc) : 2) + "\n";
}

/**
 * Removes `path` (e.g. ["mcpServers", "spillway"]) and nothing else: an object left empty by it
 * stays (the user may have made it). The document as it was when there is no such entry.
 */
export function removeJsonEntry(doc: string | undefined, path: string[], fileName = "the file"): string | undefined {
  if (doc === undefined) return doc;
  const root = parseRoot(doc, fileName);
  let at: unknown = root;
  for (const key of path.slice(0, -1)) at = isObject(at) ? at[key] : undefined;
  const last = path.at(-1)!;
  if (!isObject(at) || !(last in at)) return doc;
  delete at[last];
  return JSON.stringify(root, null, indentOf(doc)) + "\n";
}
