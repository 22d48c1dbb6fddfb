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

/** Sets `path` (e.g. ["mcpServers", "spillway"]) to `entry`, merged over an existing object there. */
export function setJsonEntry(doc: string | undefined, path: string[], entry: Json, fileName = "the file"): string {
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
