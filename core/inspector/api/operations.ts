/**
 * The inspector's operation names, as plain strings: what the sandboxed preload needs to build
 * `window.spillway` without bundling the request schemas (and zod). contract.ts keys its schemas
 * by exactly this list; a test checks they agree.
 */
export const OP_NAMES = [
  "overview.get", "savings.get",
  "blobs.list", "blobs.facets", "blobs.get", "blobs.content", "blobs.pin", "blobs.unpin", "blobs.purge", "blobs.export",
  "fetch.run", "search.all",
  "sessions.list", "sessions.timeline", "calls.get", "events.get",
  "tools.list", "tools.run",
  "endpoint.status", "endpoint.start", "endpoint.stop", "endpoint.token",
  "connect.snippets",
  "config.get", "config.validate", "config.set",
  "store.sweep",
  "history.agents", "history.import", "history.status", "history.cancel", "history.summary",
  "replay.run", "replay.export",
] as const;
