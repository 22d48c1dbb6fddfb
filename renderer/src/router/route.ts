/** Hash routes of the inspector: `#/blobs/<id>?line=12`. Pure parse/format so links and tests agree. */

export type Route =
  | { name: "overview" }
  | { name: "sessions" }
  | SessionRoute
  | ({ name: "blobs" } & BlobQuery)
  | { name: "blob"; id: string; line?: number }
  | ({ name: "search"; q?: string } & SearchScope)
  | { name: "tools"; tool?: string }
  | { name: "import" }
  | { name: "replay"; session?: string; agent?: string }
  | { name: "endpoint" }
  | { name: "settings" };

export type RouteName = Route["name"];

/**
 * A session with its open calls: `call` is the one opened last (the one a link points at and the
 * view scrolls to), `open` the others still open, oldest first: `#/sessions/<id>?call=17&open=9,12`.
 */
export interface SessionRoute {
  name: "session";
  id: string;
  call?: number;
  open?: number[];
}

/** The blobs table's filters and sort as they stand in its URL (so Back and links keep them). */
export interface BlobQuery {
  q?: string;
  tool?: string;
  session?: string;
  kind?: string;
  label?: string;
  state?: string;
  /** rescued | dedup | other */
  role?: string;
  /** Minimum size, in thousands of chars. */
  min?: string;
  /** Stored since, YYYY-MM-DD (local). */
  from?: string;
  sort?: string;
  dir?: string;
}
/** The global search's filters and grouping, in its URL. */
export interface SearchScope {
  label?: string;
  kind?: string;
  tool?: string;
  /** "blob" (default), "session" or "none". */
  group?: string;
}
const SEARCH_KEYS = ["label", "kind", "tool", "group"] as const;

export const BLOB_QUERY_KEYS = ["q", "tool", "session", "kind", "label", "state", "role", "min", "from", "sort", "dir"] as const;

function params(query: string): URLSearchParams {
  return new URLSearchParams(query);
}

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, "");
  const [path = "", query = ""] = raw.split("?", 2);
  const parts = path
    .split("/")
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  const q = params(query);
  const opt = (k: string) => q.get(k) || undefined;
  switch (parts[0]) {
    case "sessions": {
      if (!parts[1]) return { name: "sessions" };
      return sessionRoute(parts[1], [...callIds(q.get("open")), ...callIds(q.get("call"))]);
    }
    case "blobs": {
      if (parts[1]) {
        const line = Number(q.get("line"));
        return { name: "blob", id: parts[1], ...(q.has("line") && Number.isInteger(line) && line >= 0 ? { line } : {}) };
      }
      const r: Route & { name: "blobs" } = { name: "blobs" };
      for (const k of BLOB_QUERY_KEYS) {
        const v = opt(k);
        if (v) r[k] = v;
      }
      return r;
    }
    case "search": {
      const r: Route & { name: "search" } = { name: "search" };
      for (const k of ["q", ...SEARCH_KEYS] as const) {
        const v = opt(k);
        if (v) r[k] = v;
      }
      return r;
    }
    case "tools":
      return parts[1] ? { name: "tools", tool: parts[1] } : { name: "tools" };
    case "import":
      return { name: "import" };
    case "replay": {
      const session = opt("session");
      const agent = opt("agent");
      return { name: "replay", ...(session ? { session } : {}), ...(agent ? { agent } : {}) };
    }
    case "endpoint":
      return { name: "endpoint" };
    case "settings":
      return { name: "settings" };
    default:
      return { name: "overview" };
  }
}

/** Positive call ids from a comma-separated list, bad ones left out. */
function callIds(list: string | null): number[] {
  if (!list) return [];
  return list
    .split(",")
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
}

/** The session route with these calls open, in the order they were opened (the last one is `call`). */
export function sessionRoute(id: string, calls: readonly number[]): SessionRoute {
  // A call opened again counts where it was opened last.
  const order = calls.filter((c, i) => calls.lastIndexOf(c) === i);
  const call = order.at(-1);
  const open = order.slice(0, -1);
  return { name: "session", id, ...(call !== undefined ? { call } : {}), ...(open.length ? { open } : {}) };
}

/** The calls a session route has open, oldest first. */
export function openCalls(r: SessionRoute): number[] {
  return r.call === undefined ? [] : [...(r.open ?? []).filter((c) => c !== r.call), r.call];
}

/** The route after a call's row is opened (it becomes `call`) or closed (the last one opened before it takes its place). */
export function toggleCall(r: SessionRoute, callId: number): SessionRoute {
  const calls = openCalls(r);
  return sessionRoute(r.id, calls.includes(callId) ? calls.filter((c) => c !== callId) : [...calls, callId]);
}

function qs(o: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== "") p.set(k, String(v));
  // Commas are legal in a query and keep a list of call ids readable.
  const s = p.toString().replace(/%2C/gi, ",");
  return s ? `?${s}` : "";
}

export function formatRoute(r: Route): string {
  const enc = encodeURIComponent;
  switch (r.name) {
    case "overview":
      return "#/overview";
    case "sessions":
      return "#/sessions";
    case "session":
      return `#/sessions/${enc(r.id)}${qs({ call: r.call, open: r.call === undefined ? undefined : r.open?.join(",") })}`;
    case "blobs":
      return `#/blobs${qs(Object.fromEntries(BLOB_QUERY_KEYS.map((k) => [k, r[k]])))}`;
    case "blob":
      return `#/blobs/${enc(r.id)}${qs({ line: r.line })}`;
    case "search":
      return `#/search${qs({ q: r.q, label: r.label, kind: r.kind, tool: r.tool, group: r.group })}`;
    case "tools":
      return r.tool ? `#/tools/${enc(r.tool)}` : "#/tools";
    case "import":
      return "#/import";
    case "replay":
      return `#/replay${qs({ session: r.session, agent: r.agent })}`;
    case "endpoint":
      return "#/endpoint";
    case "settings":
      return "#/settings";
  }
}

/** The navigation entry a route belongs to (a blob page lights up "Blobs"). */
export function sectionOf(r: Route): RouteName {
  if (r.name === "session") return "sessions";
  if (r.name === "blob") return "blobs";
  return r.name;
}
