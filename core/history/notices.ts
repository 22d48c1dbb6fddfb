/**
 * Each agent's own notices for a result it did not give the model whole, and the files it saved
 * the whole result to. Learned from what Claude Code 2.1, Codex 0.171, Gemini CLI 0.61 and
 * OpenCode 1.18 write (tests/fixtures/history/).
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import type { HostCut } from "./types";

export interface Notice {
  cut: HostCut;
  /** The file the agent says holds the whole result. */
  path: string | null;
}

/** The agent whose history is read: a notice is only its own agent's (another's words are just text). */
export type NoticeAgent = "claude-code" | "codex" | "gemini-cli" | "opencode";

const PATTERNS: { re: RegExp; cut: HostCut; agent?: NoticeAgent }[] = [
  // Claude Code, Bash and other built-ins over their limit.
  { re: /<persisted-output>\s*Output too large[^\n]*?Full output saved to: ([^\n]+)/, cut: "persisted", agent: "claude-code" },
  // Claude Code, an MCP result over its token limit.
  { re: /exceeds maximum allowed tokens\. Output has been saved to ([^\n]+?)\.?\n/, cut: "persisted", agent: "claude-code" },
  // Gemini CLI.
  { re: /^Output too large\. Showing [^\n]*?For full output see: ([^\n]+)/, cut: "persisted", agent: "gemini-cli" },
  // OpenCode.
  { re: /The tool call succeeded but the output was truncated\. Full output saved to: ([^\n]+)/, cut: "persisted", agent: "opencode" },
  // Codex (tokens or chars cut from the middle), Gemini CLI (characters omitted), Claude Code's older line cuts.
  { re: /…\d+ (?:tokens|chars) truncated…/, cut: "truncated" },
  { re: /\.\.\. \[[\d,]+ characters omitted\] \.\.\./, cut: "truncated" },
  { re: /\.\.\.[\d,]+ bytes truncated\.\.\./, cut: "truncated" },
  { re: /\[\.\.\. ?[\d,]+ (?:lines|characters|chars) truncated ?\.\.\.\]/, cut: "truncated" },
];

/** The first notice of `agent` in `text`, if the agent cut it. */
export function findNotice(text: string, agent: NoticeAgent): Notice | null {
  for (const { re, cut, agent: own } of PATTERNS) {
    if (own && own !== agent) continue;
    const m = re.exec(text);
    if (m) return { cut, path: m[1]?.trim() ?? null };
  }
  return null;
}

/** Files larger than this are not read back (the result is then only what the model got). */
export const PERSISTED_MAX_BYTES = 256 * 1024 * 1024;

/**
 * The whole result from the first candidate file that exists. Callers give only the agent's own
 * folder for saved outputs beside the history being read, with the file name the notice gave:
 * never the path as the notice wrote it, which is only text of the result (a web page or a file
 * the agent read could name any file of the user's).
 */
export function readPersisted(candidates: (string | null)[]): { text: string; path: string } | null {
  for (const path of candidates) {
    if (!path || !existsSync(path)) continue;
    let fd: number | null = null;
    try {
      fd = openSync(path, "r");
      const size = fstatSync(fd).size;
      if (!fstatSync(fd).isFile() || size > PERSISTED_MAX_BYTES) continue;
      const buf = Buffer.alloc(size);
      let off = 0;
      while (off < size) {
        const n = readSync(fd, buf, off, size - off, off);
        if (n === 0) break;
        off += n;
      }
      return { text: buf.subarray(0, off).toString("utf8"), path };
    } catch {
      continue;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
  return null;
}
