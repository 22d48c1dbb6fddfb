/** The inspector operations implemented over the engine; one function per contract operation. */
import type { SavingsGroup } from "../../store/read/savings";
import { BlobViews, isMaskable } from "./blobViews";
import { readConfigView, saveConfig, validateConfig } from "./configEdit";
import { contentPage } from "./contentPage";
import type { OpName, ParsedReq, Res } from "../api/contract";
import type { BlobRow, GlobalHit, SavingsFigures } from "../api/dto";
import { ErrorCode, SpillwayError } from "../../errors";
import { emptySavings } from "../../types";
import { runFetchByHand } from "./fetchRun";
import { historyHandlers } from "./historyHandlers";
import { hourlySavings } from "./hourlySavings";
import { labelOrigin } from "./labelOrigin";
import { unknownEndpoint, type InspectorHost } from "./host";

export type Handlers = { [K in OpName]: (req: ParsedReq<K>) => Res<K> | Promise<Res<K>> };

/** Windows ending before this line may be served from the head of a large blob's file. */
const HEAD_PAGE_MAX_LINES = 20_000;
/** Sessions shown in the overview's per-session chart. */
const TOP_SESSIONS = 12;

const EXT: Record<string, string> = {
  json: "json",
  ndjson: "jsonl",
  csv: "csv",
  tsv: "tsv",
  html: "html",
  xml: "xml",
  markdown: "md",
  log: "log",
};

const eachId = (ids: string[], fn: (id: string) => boolean) => ({ changed: ids.filter((id) => fn(id)) });

export function createHandlers(host: InspectorHost, views = new BlobViews(host.engine)): Handlers {
  const { engine } = host;
  const endpoint = () => host.endpoint ?? null;
  const toolHost = () => {
    if (!host.tools)
      throw new SpillwayError(
        ErrorCode.Unsupported,
        "This inspector has no upstream servers to run tools on: start the endpoint (`spillway serve`, or the app's tray) first.",
      );
    return host.tools;
  };

  const blobRow = (id: string): BlobRow => {
    const r = engine.reader.blob(id);
    if (!r) throw new SpillwayError(ErrorCode.NotFound, `There is no blob ${id} in this store.`);
    return r;
  };
  const savingsOf = (group: SavingsGroup, since: number): SavingsFigures[] => engine.savings(group, since);

  return {
    ...historyHandlers(host),
    "overview.get": ({ since }) => {
      const s = engine.reader.stats();
      const recent = engine.reader.recentEvents(25);
      return {
        store: {
          ...s.blobs,
          usedBytes: s.usedBytes,
          capBytes: engine.reader.capBytes(),
          sessions: s.sessions,
          calls: s.calls,
          lastCallAt: s.lastCallAt,
        },
        total: savingsOf("total", since)[0] ?? emptySavings("total"),
        byDay: savingsOf("day", since),
        byHour: hourlySavings((from) => savingsOf("hour", Math.max(from, since)), engine.reader.now),
        byTool: savingsOf("tool", since),
        byServer: savingsOf("server", since),
        bySession: savingsOf("session", since).slice(0, TOP_SESSIONS),
        byReference: engine.reader.referenceTotals(since),
        failures: engine.reader.failureTotals(since),
        recent,
        generatedAt: engine.reader.now,
      };
    },
    "savings.get": ({ group, since }) => savingsOf(group, since),

    "blobs.list": (req) => engine.reader.listBlobs(req),
    "blobs.facets": () => engine.reader.blobFacets(),
    "blobs.get": ({ id }) => {
      const meta = blobRow(id);
      const handles = engine.reader.handles(id);
      // The header names the producing session: its handle comes first when it got one.
      const handle = handles.find((h) => h.sessionId === meta.sessionId) ?? handles[0] ?? null;
      const lineage = engine.reader.lineage(id);
      return { meta, handle, handles, lineage, maskable: isMaskable(meta), labelOrigin: labelOrigin(meta.label, lineage.events) };
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
    "search.all": ({ query, topK, filter }) => {
      const t0 = performance.now();
      const scoped = Object.keys(filter).length > 0;
      const ids = scoped ? engine.reader.blobIdsMatching(filter) : undefined;
      let narrowedTo: number | null = null;
      const onNarrowed = (rows: number) => (narrowedTo = rows);
      const hits = ids && ids.length === 0 ? [] : engine.search(query, { topK, onNarrowed, ...(ids ? { blobIds: ids } : {}) });
      const out: GlobalHit[] = [];
      for (const h of hits) {
        const m = engine.reader.meta(h.blobId);
        if (!m) continue;
        out.push({
          blobId: h.blobId,
          startLine: h.startLine,
          endLine: h.endLine,
          snippet: h.snippet,
          score: h.score,
          tool: m.tool,
          kind: m.kind,
          label: m.label,
          state: m.state,
          sessionId: m.sessionId,
          chars: m.chars,
          createdAt: m.createdAt,
        });
      }
      return { hits: out, tookMs: Math.round(performance.now() - t0), unindexed: engine.unindexedBlobs(), narrowedTo };
    },

    "sessions.list": (req) => engine.reader.listSessions(req),
    "sessions.timeline": ({ sessionId, afterCallId, limit }) => {
      const session = engine.reader.session(sessionId);
      if (!session) throw new SpillwayError(ErrorCode.NotFound, `There is no session ${sessionId} in this store.`);
      return { session, ...engine.reader.timeline(sessionId, afterCallId, limit) };
    },
    "calls.find": (q) => {
      if (!engine.reader.session(q.sessionId))
        throw new SpillwayError(ErrorCode.NotFound, `There is no session ${q.sessionId} in this store.`);
      return engine.reader.findCalls(q);
    },
    "calls.get": ({ callId }) => {
      const d = engine.reader.callDetail(callId, (id, max) => views.head(id, max));
      if (!d) throw new SpillwayError(ErrorCode.NotFound, `There is no call ${callId} in this store.`);
      return d;
    },
    "events.get": ({ eventId }) => {
      const d = engine.reader.eventDetail(eventId);
      if (!d) throw new SpillwayError(ErrorCode.NotFound, `There is no ledger event ${eventId} in this store.`);
      return d;
    },

    "tools.list": async () => toolHost().catalog(),
    "tools.run": async ({ tool, args }) => toolHost().run(tool, args),

    "endpoint.status": () => endpoint()?.status() ?? unknownEndpoint("This host did not report an endpoint."),
    "endpoint.start": async () => {
      const e = endpoint();
      if (!e?.start)
        throw new SpillwayError(
          ErrorCode.Unsupported,
          "This inspector cannot start the endpoint: start it with `spillway serve` or from the app's tray.",
        );
      return e.start();
    },
    "endpoint.stop": async () => {
      const e = endpoint();
      if (!e?.stop)
        throw new SpillwayError(
          ErrorCode.Unsupported,
          "This inspector is served by the endpoint itself: stop it where it runs (Ctrl+C on `spillway serve`).",
        );
      return e.stop();
    },
    "endpoint.token": () => {
      const e = endpoint();
      if (e && !e.token) {
        const file = e.status().tokenFile ?? "$SPILLWAY_HOME/token";
        throw new SpillwayError(
          ErrorCode.Unsupported,
          `The web inspector does not hand out the endpoint's token: it is in ${file} (owner-only), where agents' snippets read it.`,
        );
      }
      const token = e?.token?.() ?? null;
      if (!token) throw new SpillwayError(ErrorCode.NotFound, "No endpoint token is available from this host.");
      return { token };
    },
    "connect.snippets": async () => (host.connectSnippets ? await host.connectSnippets() : []),

    "config.get": () => readConfigView(host.configPath, engine.config, (t) => engine.operatorView(t)),
    "config.validate": ({ config }) => {
      const r = validateConfig(config);
      return r.valid ? { valid: true, issues: [] } : { valid: false, issues: r.issues };
    },
    "config.set": ({ config }) => saveConfig(host.configPath, config, engine.config, (t) => engine.operatorView(t)),

    "store.sweep": () => {
      // Not verified: reading every blob whole would stall the endpoint; `spillway sweep --deep` does that.
      // Old call detail goes in background steps, so the agents this process answers wait one batch at most.
      // Removed blobs leave the engine's view cache as they go.
      const r = engine.sweep(true, false, true);
      return {
        expired: r.expired,
        evicted: r.evicted,
        tombstonesDropped: r.tombstonesDropped,
        usedBytes: r.usedBytes,
        capBytes: r.capBytes,
      };
    },
  };
}
