/**
 * Claude Code saves large outputs under the session's `tool-results` folder and hands PostToolUse
 * only part of them: the first 30,000 chars of a Bash output, or, for an MCP result over its token
 * limit, a message naming the file. Spillway stores the file instead. A hook payload is only a
 * request, so the file is read only where Claude Code writes these files for that session, and
 * only when its size is the one Claude Code reported.
 */
import { open, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join } from "node:path";

/** Larger persisted outputs are left to Claude Code's own preview. */
export const PERSISTED_MAX_BYTES = 256 * 1024 * 1024;

/** The saved file and its size as Claude Code reported it: in bytes (Bash) or in chars (MCP). */
export type PersistedRef = { path: string; bytes: number } | { path: string; chars: number };

/** Where the payload says its session lives. */
export interface SessionFiles {
  transcriptPath: string;
  sessionId: string;
}

export type PersistedRead = { ok: true; text: string } | { ok: false; reason: string };

/** The whole persisted output, or why it cannot be used. Never throws. */
export async function readPersistedOutput(
  ref: PersistedRef,
  session: SessionFiles,
  maxBytes = PERSISTED_MAX_BYTES,
): Promise<PersistedRead> {
  const { path } = ref;
  const size = "bytes" in ref ? ref.bytes : ref.chars;
  if (!isAbsolute(path) || !isAbsolute(session.transcriptPath) || !session.transcriptPath.endsWith(".jsonl")) {
    return { ok: false, reason: "the persisted output or transcript path is not absolute" };
  }
  if (!Number.isSafeInteger(size) || size < 0 || size > maxBytes) return { ok: false, reason: `the reported size ${size} is out of range` };
  if (/[/\\]/.test(session.sessionId) || session.sessionId.startsWith("."))
    return { ok: false, reason: "the session id is not a plain name" };
  try {
    // <projects>/<project>/<session>.jsonl holds the transcript; <projects>/<project>/<session>/tool-results/ the outputs.
    const expected = join(await realpath(dirname(session.transcriptPath)), session.sessionId, "tool-results", basename(path));
    const actual = await realpath(path);
    if (actual !== expected) return { ok: false, reason: "the persisted output is not in the session's tool-results folder" };
    const fh = await open(actual, "r");
    try {
      const st = await fh.stat();
      if (!st.isFile()) return { ok: false, reason: "the persisted output is not a file" };
      if ("bytes" in ref && st.size !== ref.bytes)
        return { ok: false, reason: `the persisted output has ${st.size} bytes, the payload says ${ref.bytes}` };
      // A char holds 1 to 4 UTF-8 bytes (a UTF-16 pair: 4 bytes, 2 chars).
      if ("chars" in ref && (st.size < ref.chars || st.size > ref.chars * 3 || st.size > maxBytes))
        return { ok: false, reason: `the persisted output has ${st.size} bytes, too many or too few for ${ref.chars} chars` };
      const text = await fh.readFile({ encoding: "utf8" });
      if ("chars" in ref && text.length !== ref.chars)
        return { ok: false, reason: `the persisted output has ${text.length} chars, the payload says ${ref.chars}` };
      return { ok: true, text };
    } finally {
      await fh.close();
    }
  } catch (err) {
    return { ok: false, reason: `the persisted output cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})` };
  }
}
