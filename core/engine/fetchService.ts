/** The model-facing read tools: rescuer_fetch and recall_result, with session scoping and the ledger. */
import { fmtInt } from "../rescue/format";
import { runFetch } from "../fetch/fetchModes";
import type { FetchAnswer } from "../fetch/fetchTypes";
import { ErrorCode, SpillwayError, describeError } from "../errors";
import { fetchArgSecrets } from "../sensitivity/fetchArgsMask";
import { BLOB_ID_PATTERN } from "../vocabulary";
import type { BlobScan } from "../search/scanSearch";
import type { TextDoc } from "../text/textDoc";
import type { BlobMeta } from "../types";
import type { EngineParts } from "./parts";
import { keepOutline, keptOutline } from "./keptOutline";
import { recordRead, type RecordedAnswer } from "./readLedger";

export interface FetchRequest {
  /** The calling session; null for the operator (CLI, inspector), who may read any blob. */
  sessionId: string | null;
  id: unknown;
  mode: unknown;
  args?: Record<string, unknown>;
  /** Who reads when `sessionId` is null ("inspector", "cli"): recorded as the operator's read. */
  operator?: string;
}

function errorAnswer(text: string): FetchAnswer {
  return { text, truncated: false, isError: true, servedChars: 0 };
}

function ago(ms: number): string {
  const h = Math.round(ms / 3_600_000);
  return h < 1 ? "less than an hour ago" : h < 48 ? `${h} h ago` : `${Math.round(h / 24)} days ago`;
}

function unknownId(what: string, id: string, sessionId: string | null): string {
  return sessionId === null
    ? `There is no stored ${what} ${id}: check the id in the handle or stub.`
    : `There is no stored ${what} ${id} in this session: check the id in the handle or stub.`;
}

/** Resolves an id for a session: the blob's metadata and text, or a sentence saying why not. */
export function resolveBlob(
  p: EngineParts,
  sessionId: string | null,
  id: unknown,
  what = "result",
): { ok: true; meta: BlobMeta; text: string } | { ok: false; message: string } {
  const resolved = resolveMeta(p, sessionId, id, what);
  if (!resolved.ok) return resolved;
  try {
    return { ok: true, meta: resolved.meta, text: readText(p, resolved.meta, what) };
  } catch (err) {
    if (err instanceof Unreadable) return { ok: false, message: err.message };
    throw err;
  }
}

/** Resolves an id for a session without reading its content: the blob's row, or a sentence saying why not. */
function resolveMeta(
  p: EngineParts,
  sessionId: string | null,
  id: unknown,
  what: string,
): { ok: true; meta: BlobMeta } | { ok: false; message: string } {
  if (typeof id !== "string" || !BLOB_ID_PATTERN.test(id)) {
    return {
      ok: false,
      message: `"${String(id ?? "").slice(0, 40)}" is not a valid ${what} id: ids are 12 lowercase hex characters, as shown in the handle.`,
    };
  }
  const meta = p.store.meta(id);
  // A session is told the same for an id that does not exist and for one another session holds,
  // so it cannot probe which ids exist; the operator (sessionId null) reads every blob anyway.
  if (!meta || (sessionId !== null && !p.sessions.holds(sessionId, id))) return { ok: false, message: unknownId(what, id, sessionId) };
  if (meta.state === "tombstoned") {
    const row = p.store.row(id)!;
    const why =
      row.tombstone_reason === "evicted"
        ? "evicted to keep the store under its size cap"
        : row.tombstone_reason === "purged"
          ? "purged by the user"
          : row.tombstone_reason === "corrupt"
            ? "found damaged on disk and quarantined"
            : "expired";
    return {
      ok: false,
      message: `The ${what} ${id} from ${meta.tool} was ${why} ${ago(p.store.now - (meta.tombstonedAt ?? p.store.now))} and is no longer stored: re-run ${meta.tool} to get it again.`,
    };
  }
  return { ok: true, meta };
}

/** A blob that cannot be served, with the sentence that says why. */
class Unreadable extends Error {}

/** The exact text of a resolved blob. Throws Unreadable (gone, damaged, undecryptable) with the model's sentence. */
function readText(p: EngineParts, meta: BlobMeta, what: string): string {
  try {
    const text = p.store.read(meta.id);
    if (text === null) throw new Unreadable(goneMessage(what, meta));
    return text;
  } catch (err) {
    throw unreadable(err, what, meta) ?? err;
  }
}

function goneMessage(what: string, meta: BlobMeta): string {
  return `The ${what} ${meta.id} from ${meta.tool} is no longer stored: re-run ${meta.tool} to get it again.`;
}

/** The Unreadable an error of the store stands for; null for any other error. */
function unreadable(err: unknown, what: string, meta: BlobMeta): Unreadable | null {
  if (err instanceof Unreadable) return err;
  if (err instanceof SpillwayError && (err.code === ErrorCode.Corrupt || err.code === ErrorCode.CannotDecrypt)) {
    return new Unreadable(unreadableMessage(what, meta, err));
  }
  if (err instanceof SpillwayError && err.code === ErrorCode.NotFound) return new Unreadable(goneMessage(what, meta));
  return null;
}

/** An answer built from the blob's model view goes through the model's exit once more, with whatever was composed around the slice. */
function exit(p: EngineParts, meta: BlobMeta, answer: FetchAnswer): FetchAnswer {
  const text = p.views.modelView(answer.text, meta.tool);
  return text === answer.text ? answer : { ...answer, text };
}

/** The sentence for a stored copy that fails its integrity check or cannot be decrypted: never its bytes. */
function unreadableMessage(what: string, meta: BlobMeta, err: SpillwayError): string {
  const why =
    err.code === ErrorCode.Corrupt
      ? "its stored copy is damaged (the file no longer matches its id)"
      : "its stored copy cannot be decrypted (the store's key is missing or was replaced)";
  return `The ${what} ${meta.id} from ${meta.tool} cannot be served: ${why}. Re-run ${meta.tool} to get it again; the fresh result is stored in its place.`;
}

/** What is wrong with the blob's file that its size tells (gone, cut or grown), else null. */
function fileProblem(p: EngineParts, meta: BlobMeta): string | null {
  const size = p.store.files.size(meta.id);
  const redo = `the other modes cannot serve it; re-run ${meta.tool} to get it again`;
  if (size === null) return `its stored copy is missing; ${redo}.`;
  if (!meta.encrypted && size !== meta.bytes)
    return `its stored copy has ${fmtInt(size)} bytes, not ${fmtInt(meta.bytes)}: it is damaged; ${redo}.`;
  return null;
}

/** Modes answered from a window of the blob (TextDoc) when the store can read it in parts. */
const READS_IN_PARTS = new Set(["range", "grep"]);
/** From this size, the first search of a blob not yet indexed answers from a scan of its text. */
const SCAN_SEARCH_MIN_CHARS = 1024 * 1024;

export function fetchBlob(p: EngineParts, req: FetchRequest): RecordedAnswer {
  const mode = typeof req.mode === "string" ? req.mode : "";
  const args = req.args ?? {};
  // Arguments that name a secret by its bare value are masked in the record, with their echoes.
  const record = (answer: FetchAnswer, meta: BlobMeta | null, redact = fetchArgSecrets(args)) =>
    recordRead(p, { type: "fetch", sessionId: req.sessionId, operator: req.operator, id: req.id, meta, mode, args, answer, redact });
  try {
    const resolved = resolveMeta(p, req.sessionId, req.id, "result");
    if (!resolved.ok) return record(errorAnswer(resolved.message), null);
    const { meta } = resolved;
    // The content is read only when a mode asks for it: stat never does, range and grep read
    // the windows they serve, and a kept outline is served as it was kept.
    let text: string | undefined;
    const exact = () => (text ??= readText(p, meta, "result"));
    const view = () => p.views.modelBlob(meta.id, exact(), meta.tool);
    const kept = mode === "outline" ? keptOutline(p, meta) : null;
    let answer: FetchAnswer;
    if (kept) answer = kept;
    else {
      // A big blob not yet indexed is searched by a scan while it is indexed in the background;
      // a small one is indexed now (it takes milliseconds, and gives the index's own answer).
      let indexLater: (() => void) | undefined;
      let scan: (() => BlobScan) | undefined;
      if (mode === "search" && !p.search.isIndexed(meta.id)) {
        if (meta.chars < SCAN_SEARCH_MIN_CHARS) p.ensureIndexed(meta.id, exact(), meta);
        else {
          indexLater = () => p.scheduleIndex(meta.id, undefined, true);
          // The searches until the index is done share one scan: no second read, and what it counted stays counted.
          scan = () => p.scans.scanOf(meta.id, meta.kind, exact, view);
        }
      }
      // The store reads in parts only blobs whose exact text is the model's view (no credential label).
      const doc = READS_IN_PARTS.has(mode) ? docOf(p, meta) : null;
      let failure: Unreadable | null = null;
      answer = runFetch(
        mode,
        {
          id: meta.id,
          get content() {
            return view();
          },
          ...(doc ? { doc } : {}),
          ...(indexLater ? { indexLater } : {}),
          ...(scan ? { scan } : {}),
          meta,
          args,
          limits: { maxChars: p.config.fetch.maxChars, fullMaxChars: p.config.fetch.fullMaxChars },
          search: p.search,
          withholdFull: p.views.masksFor(meta.tool) && meta.label === "credential",
        },
        (err) => {
          failure = unreadable(err, "result", meta);
          if (!failure) p.logger.error("fetch mode failed", { id: meta.id, mode, error: describeError(err) });
        },
      );
      if (failure) return record(errorAnswer((failure as Unreadable).message), meta);
      if (mode === "outline" && !answer.isError) keepOutline(p, meta, answer);
      // stat reads no content; a file gone or of the wrong size is cheap to notice, and worth saying.
      const problem = mode === "stat" && !answer.isError ? fileProblem(p, meta) : null;
      if (problem) answer = { ...answer, text: `${answer.text}\nwarning: ${problem}` };
    }
    answer = exit(p, meta, answer);
    // A blob of a credential label may hold the secret an argument names: compare with its text.
    if (text === undefined && meta.label === "credential" && hasText(args)) exact();
    return record(
      answer,
      meta,
      text === undefined ? fetchArgSecrets(args) : fetchArgSecrets(args, text, p.views.maskedBlob(meta.id, text)),
    );
  } catch (err) {
    if (err instanceof Unreadable) return record(errorAnswer(err.message), null);
    p.logger.error("fetch failed", { id: String(req.id), mode: String(req.mode), error: describeError(err) });
    return errorAnswer(`Fetching ${String(req.id)} failed inside Spillway: ${describeError(err)}`);
  }
}

/** The blob read in parts, or null (read it whole); a first use builds its line index from the verified text. */
function docOf(p: EngineParts, meta: BlobMeta): TextDoc | null {
  try {
    return p.store.aux.textDoc(meta.id);
  } catch (err) {
    throw unreadable(err, "result", meta) ?? err;
  }
}

function hasText(args: Record<string, unknown>): boolean {
  return Object.values(args).some((v) => typeof v === "string" && v.length > 0);
}

/** recall_result: the exact original text, for the session that saw it. */
export function recallResult(p: EngineParts, sessionId: string | null, resultId: unknown): RecordedAnswer {
  try {
    const resolved = resolveBlob(p, sessionId, resultId);
    if (!resolved.ok)
      return recordRead(p, {
        type: "recall",
        sessionId,
        id: resultId,
        meta: null,
        answer: errorAnswer(resolved.message),
        data: { refused: true },
      });
    const { meta, text } = resolved;
    const view = p.views.modelBlob(meta.id, text, meta.tool);
    let answer: FetchAnswer;
    if (view.length > p.config.fetch.fullMaxChars) {
      const cap = p.config.fetch.fullMaxChars;
      answer = errorAnswer(
        `Result ${meta.id} is ${fmtInt(view.length)} chars, over the ${fmtInt(cap)}-char limit recall_result returns whole: read it with rescuer_fetch (mode outline for its structure, search or grep to find things, range for slices, query for JSON).`,
      );
    } else {
      answer = { text: view, truncated: false, isError: false, servedChars: view.length };
    }
    answer = exit(p, meta, answer);
    return recordRead(p, {
      type: "recall",
      sessionId,
      id: resultId,
      meta,
      answer,
      data: { refused: answer.isError, masked: view !== text },
    });
  } catch (err) {
    p.logger.error("recall failed", { id: String(resultId), error: describeError(err) });
    return errorAnswer(`Recalling ${String(resultId)} failed inside Spillway: ${describeError(err)}`);
  }
}

/** The whole model-visible content of a blob for a session (MCP resources/read): no size cap, masked per the sensitivity mode. */
export function readBlob(
  p: EngineParts,
  sessionId: string | null,
  id: unknown,
): { ok: true; meta: BlobMeta; text: string } | { ok: false; message: string } {
  try {
    const resolved = resolveBlob(p, sessionId, id);
    if (!resolved.ok) {
      recordRead(p, { type: "fetch", sessionId, id, meta: null, mode: "resource", answer: errorAnswer(resolved.message) });
      return resolved;
    }
    const { meta, text } = resolved;
    const view = p.views.modelBlob(meta.id, text, meta.tool);
    const answer = { text: view, truncated: false, isError: false, servedChars: view.length };
    recordRead(p, { type: "fetch", sessionId, id, meta, mode: "resource", answer, keepText: false });
    return { ok: true, meta, text: view };
  } catch (err) {
    p.logger.error("blob read failed", { id: String(id), error: describeError(err) });
    return { ok: false, message: `Reading ${String(id)} failed inside Spillway: ${describeError(err)}` };
  }
}
