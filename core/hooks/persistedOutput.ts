/**
 * Over 30,000 chars Claude Code hands PostToolUse only the head of a Bash output and saves the
 * whole of it under the session's `tool-results` folder. Spillway stores that file instead of
 * the head. A hook payload is only a request, so the file is read only where Claude Code writes
 * these files for that session, and only when its size is the one Claude Code reported.
 */
import { open, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join } from "node:path";

/** Larger persisted outputs are left to Claude Code's own preview. */
export const PERSISTED_MAX_BYTES = 256 * 1024 * 1024;

export interface PersistedRef {
  path: string;
  bytes: number;
}

/** Where the payload says its session lives. */
export interface SessionFiles {
  transcriptPath: string;
  sessionId: string;
}

export type PersistedRead = { ok: true; text: string } | { ok: false; reason: string };

/** The whole persisted output, or why it cannot be used. Never throws. */
export async function readPersistedOutput(ref: PersistedRef, session: SessionFiles, maxBytes = PERSISTED_MAX_BYTES): Promise<PersistedRead> {
  const { path, bytes } = ref;
  if (!isAbsolute(path) || !isAbsolute(session.transcriptPath) || !session.transcriptPath.endsWith(".jsonl")) {
    return { ok: false, reason: "the persisted output or transcript path is not absolute" };
  }
  if (!Number.isSafeInteger(bytes) || bytes < 0 || bytes > maxBytes) return { ok: false, reason: `persistedOutputSize ${bytes} is out of range` };
  if (/[/\\]/.test(session.sessionId) || session.sessionId.startsWith(".")) return { ok: false, reason: "the session id is not a plain name" };
  try {
    // <projects>/<project>/<session>.jsonl holds the transcript; <projects>/<project>/<session>/tool-results/ the outputs.
    const expected = join(await realpath(dirname(session.transcriptPath)), session.sessionId, "tool-results", basename(path));
    const actual = await realpath(path);
    if (actual !== expected) return { ok: false, reason: "the persisted output is not in the session's tool-results folder" };
    const fh = await open(actual, "r");
    try {
      const st = await fh.stat();
      if (!st.isFile()) return { ok: false, reason: "the persisted output is not a file" };
      if (st.size !== bytes) return { ok: false, reason: `the persisted output has ${st.size} bytes, the payload says ${bytes}` };
      return { ok: true, text: await fh.readFile({ encoding: "utf8" }) };
    } finally {
      await fh.close();
    }
  } catch (err) {
    return { ok: false, reason: `the persisted output cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})` };
  }
}
