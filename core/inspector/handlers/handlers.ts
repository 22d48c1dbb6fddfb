/** The inspector operations implemented over the engine; one function per contract operation. */
import { storeStats } from "../../store/stats";
import type { SavingsGroup } from "../../savings/savings";
import { blobFacets, listBlobs, toBlobRow } from "./blobQueries";
import { BlobViews, isMaskable } from "./blobViews";
import { readConfigView, saveConfig, validateConfig } from "./configEdit";
import { contentPage } from "./contentPage";
import type { OpName, ParsedReq, Res } from "../api/contract";
import type { BlobRow, GlobalHit, SavingsFigures } from "../api/dto";
import { InspectorFailure } from "../api/failure";
import { runFetchByHand } from "./fetchRun";
import { hourlySavings } from "./hourlySavings";
import { unknownEndpoint, type InspectorHost } from "./host";
import { toLedgerEvent } from "./ledgerRows";
import { blobLineage, lastHandle } from "./lineage";
import { listSessions, sessionSummary } from "./sessionQueries";
import { sessionTimeline } from "./timeline";
import type { EventRow } from "../../store/ledger";

export type Handlers = { [K in OpName]: (req: ParsedReq<K>) => Res<K> | Promise<Res<K>> };

const EMPTY_SAVINGS: SavingsFigures = {
  key: "total", calls: 0, rescued: 0, stubbed: 0, returnedChars: 0, returnedTokens: 0, givenChars: 0, givenTokens: 0,
  pulledChars: 0, pulledTokens: 0, netChars: 0, netTokens: 0, pendingTokenCounts: 0,
};
/** Windows ending before this line may be served from the head of a large blob's file. */
const HEAD_PAGE_MAX_LINES = 20_000;
/** Sessions shown in the overview's per-session chart. */
const TOP_SESSIONS = 12;

const EXT: Record<string, string> = { json: "json", ndjson: "jsonl", csv: "csv", tsv: "tsv", html: "html", xml: "xml", markdown: "md", log: "log" };

const eachId = (ids: string[], fn: (id: string) => boolean) => ({ changed: ids.filter((id) => fn(id)) });

export function createHandlers(host: InspectorHost, views = new BlobViews(host.engine)): Handlers {
  const { engine } = host;
  const db = engine.store.db;
  const endpoint = () => host.endpoint ?? null;

  const blobRow = (id: string): BlobRow => {
    const r = engine.store.row(id);
    if (!r) throw new InspectorFailure("not_found", `There is no blob ${id} in this store.`);
    return toBlobRow(r);
  };
  const savingsOf = (group: SavingsGroup, since: number): SavingsFigures[] => engine.savings(group, since);

  return {
    "overview.get": ({ since }) => {
      const s = storeStats(db);
      const recent = (db.prepare("SELECT * FROM events ORDER BY id DESC LIMIT 25").all() as EventRow[]).map(toLedgerEvent);
      return {
        store: { ...s.blobs, usedBytes: s.usedBytes, capBytes: engine.store.capBytes(), sessions: s.sessions, calls: s.calls, lastCallAt: s.lastCallAt },
        total: savingsOf("total", since)[0] ?? EMPTY_SAVINGS,
        byDay: savingsOf("day", since),
        byHour: hourlySavings((from) => savingsOf("total", Math.max(from, since))[0], engine.store.now),
        byTool: savingsOf("tool", since),
        byServer: savingsOf("server", since),
        bySession: savingsOf("session", since).slice(0, TOP_SESSIONS),
        recent,
        generatedAt: engine.store.now,
      };
    },
    "savings.get": ({ group, since }) => savingsOf(group, since),

    "blobs.list": (req) => listBlobs(db, req),
    "blobs.facets": () => blobFacets(db),
    "blobs.get": ({ id }) => {
      const meta = blobRow(id);
      return { meta, handle: lastHandle(db, id), lineage: blobLineage(db, id), maskable: isMaskable(meta) };
    },
    "blobs.content": (req) => {
      const meta = views.liveMeta(req.id);
      // The first window of a large plain blob comes from the head of its file; the rest of
      // the text is read in the background for the pages that follow.
      if (req.by === "lines" && req.start + req.count <= HEAD_PAGE_MAX_LINES) {
        const head = views.headView(req.id, req.start + req.count, req.masked);
        if (head) {
          views.warm(req.id, req.masked);
          // Masking keeps the line count; the char total is the exact one until the whole view is read.
          return { ...contentPage(head.view, req, head.masked), totalLines: meta.lines, totalChars: meta.chars };
        }
      }
      const v = views.view(req.id, req.masked);
      return contentPage(v.view, req, v.masked);
    },
    "blobs.pin": ({ ids }) => eachId(ids, (id) => engine.setPinned(id, true)),
    "blobs.unpin": ({ ids }) => eachId(ids, (id) => engine.setPinned(id, false)),
    "blobs.purge": ({ ids }) => eachId(ids, (id) => engine.purge(id)),
    "blobs.export": ({ id, masked }) => {
      const meta = views.liveMeta(id);
      return host.exportBlob(id, masked, `${meta.tool.replace(/[^\w.-]+/g, "_")}-${id}.${EXT[meta.kind] ?? "txt"}`);
    },

    "fetch.run": (req) => runFetchByHand(engine, views.view(req.id, req.masked).view, req),
    "search.all": ({ query, topK }) => {
      const t0 = performance.now();
      const hits = engine.search.search(query, { topK });
      const out: GlobalHit[] = [];
      for (const h of hits) {
        const m = engine.store.meta(h.blobId);
        if (!m) continue;
        out.push({
          blobId: h.blobId, startLine: h.startLine, endLine: h.endLine, snippet: h.snippet, score: h.score,
          tool: m.tool, kind: m.kind, label: m.label, state: m.state, sessionId: m.sessionId, chars: m.chars, createdAt: m.createdAt,
        });
      }
      const unindexed = (
        db
          .prepare(
            `SELECT COUNT(*) AS n FROM blobs b LEFT JOIN search_blobs s ON s.blob_id = b.id
             WHERE b.tombstoned_at IS NULL AND (s.complete IS NULL OR s.complete = 0)`,
          )
          .get() as { n: number }
      ).n;
      return { hits: out, tookMs: Math.round(performance.now() - t0), unindexed };
    },

    "sessions.list": (req) => listSessions(db, req),
    "sessions.timeline": ({ sessionId, afterCallId, limit }) => {
      const session = sessionSummary(db, sessionId);
      if (!session) throw new InspectorFailure("not_found", `There is no session ${sessionId} in this store.`);
      const t = sessionTimeline(
        { db, meta: (id) => engine.store.meta(id), head: (id, max) => views.head(id, max) },
        sessionId,
        afterCallId,
        limit,
      );
      return { session, ...t };
    },

    "endpoint.status": () => endpoint()?.status() ?? unknownEndpoint("This host did not report an endpoint."),
    "endpoint.start": async () => {
      const e = endpoint();
      if (!e?.start) throw new InspectorFailure("unsupported", "This inspector cannot start the endpoint: start it with `spillway serve` or from the app's tray.");
      return e.start();
    },
    "endpoint.stop": async () => {
      const e = endpoint();
      if (!e?.stop) throw new InspectorFailure("unsupported", "This inspector is served by the endpoint itself: stop it where it runs (Ctrl+C on `spillway serve`).");
      return e.stop();
    },
    "endpoint.token": () => {
      const token = endpoint()?.token() ?? null;
      if (!token) throw new InspectorFailure("not_found", "No endpoint token is available from this host.");
      return { token };
    },
    "connect.snippets": async () => (host.connectSnippets ? await host.connectSnippets() : []),

    "config.get": () => readConfigView(host.configPath, engine.config),
    "config.validate": ({ config }) => {
      const r = validateConfig(config);
      return r.valid ? { valid: true, issues: [] } : { valid: false, issues: r.issues };
    },
    "config.set": ({ config }) => saveConfig(host.configPath, config, engine.config),

    "store.sweep": () => {
      const r = engine.sweep(true);
      return { expired: r.expired, evicted: r.evicted, tombstonesDropped: r.tombstonesDropped, usedBytes: r.usedBytes, capBytes: r.capBytes };
    },
  };
}
