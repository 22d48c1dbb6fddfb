/**
 * `spillway import` and the inspector's Import view: reads an agent's session files one by one and
 * stores each session through the engine, reporting progress as it goes; a cancelled import keeps
 * the sessions already stored (each is one transaction) and stops at the next record.
 */
import type { Engine } from "../engine/engineApi";
import { ErrorCode, SpillwayError } from "../errors";
import type { HistoryAgent } from "../vocabulary";
import { throwIfAborted } from "../history/jsonLines";
import { AGENT_SOURCES, listSessionFiles } from "../history/sources";
import type { ImportIssue, ImportProgress } from "../history/types";

export type { ImportProgress };

export interface ImportReport extends ImportProgress {
  agent: HistoryAgent;
  path: string;
  requests: number;
  unanswered: number;
  /** Lines or records skipped, with file and line. */
  issues: ImportIssue[];
  sessionIds: string[];
  cancelled: boolean;
}

export interface ImportOptions {
  agent: HistoryAgent;
  /** A folder or one session file; the agent's own folder when absent. */
  path?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?(p: ImportProgress): void;
  /** Issues kept in the report (all are counted in `issueCount`). */
  maxIssues?: number;
}

/** Yields to the event loop between sessions, so an endpoint importing in-process keeps answering. */
const yieldTurn = () => new Promise<void>((r) => setImmediate(r));

export async function importHistory(engine: Engine, o: ImportOptions): Promise<ImportReport & { issueCount: number }> {
  const src = AGENT_SOURCES[o.agent];
  const path = o.path ?? src.defaultPath(o.env ?? process.env);
  const files = listSessionFiles(o.agent, path);
  const issues: ImportIssue[] = [];
  let issueCount = 0;
  const report: ImportReport = {
    agent: o.agent,
    path,
    files: files.length,
    filesDone: 0,
    bytes: files.reduce((n, f) => n + f.bytes, 0),
    bytesDone: 0,
    sessions: 0,
    callsAdded: 0,
    callsKept: 0,
    current: null,
    requests: 0,
    unanswered: 0,
    issues,
    sessionIds: [],
    cancelled: false,
  };
  const progress = () => o.onProgress?.({ ...report, issues: undefined } as unknown as ImportProgress);
  const issue = (i: ImportIssue) => {
    issueCount++;
    if (issues.length < (o.maxIssues ?? 1000)) issues.push(i);
  };
  try {
    for (const f of files) {
      throwIfAborted(o.signal);
      report.current = f.file;
      progress();
      try {
        for await (const session of src.read(f.file, issue, o.signal)) {
          throwIfAborted(o.signal);
          const r = engine.importSession(session);
          report.sessions++;
          report.callsAdded += r.added;
          report.callsKept += r.kept;
          report.requests += r.requests;
          report.unanswered += r.unanswered;
          report.sessionIds.push(r.sessionId);
          progress();
          await yieldTurn();
        }
      } catch (err) {
        if (err instanceof SpillwayError && err.code === ErrorCode.Cancelled) throw err;
        // One unreadable file is reported and the import goes on with the next.
        issue({ file: f.file, line: 0, message: `could not be read: ${(err as Error).message}` });
      }
      report.filesDone++;
      report.bytesDone += f.bytes;
    }
  } catch (err) {
    if (!(err instanceof SpillwayError && err.code === ErrorCode.Cancelled)) throw err;
    report.cancelled = true;
  }
  report.current = null;
  progress();
  return { ...report, issueCount };
}
