/**
 * The catalog of upstream tools kept in the index: what each configured server listed last, and the
 * instructions it gave with it (masked), so a starting proxy can answer initialize and tools/list
 * before its upstreams are up. A row is keyed by the server's
 * name and a keyed hash of its config entry, so an edited entry never serves the old list (and the
 * hash says nothing about secrets in the entry's env or headers).
 */
import { createHmac } from "node:crypto";
import type { BlobStore } from "./blobStore";
import { storeSecret, type Db } from "./db";
import { stmt } from "./statements";

/** Rows of other config entries of a server are dropped once unused this long (two configs may share a home). */
const STALE_ENTRY_MS = 30 * 24 * 3_600_000;

/** JSON with object keys sorted, so two spellings of one config entry hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What the proxy asks of the catalog (core/mcp/upstreamManager.ts). */
export interface ToolCatalogView {
  /** The tools `server` listed last under exactly this config entry, or null when there are none. */
  load(server: string, config: unknown): unknown[] | null;
  /** The instructions `server` gave last under this config entry (as kept: masked), or null when none are known. */
  instructions(server: string, config: unknown): string | null;
  /** Records what `server` listed under this config entry, and the instructions it gave (null: none). */
  save(server: string, config: unknown, tools: readonly unknown[], instructions?: string | null): void;
}

export class ToolCatalog implements ToolCatalogView {
  private secret: Buffer | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key of a server's config entry: HMAC-SHA256 under the store secret of its canonical JSON. */
  configHash(config: unknown): string {
    this.secret ??= storeSecret(this.db);
    // Domain-separated from the blob ids the same secret keys.
    return createHmac("sha256", this.secret).update("upstream-config\0").update(canonical(config)).digest("hex");
  }

  /** The tools `server` listed last under exactly this config entry, or null when there are none. */
  load(server: string, config: unknown): unknown[] | null {
    const row = stmt(this.db, "SELECT tools_json FROM upstream_tools WHERE server = ? AND config_hash = ?").get(
      server,
      this.configHash(config),
    ) as { tools_json: string } | undefined;
    if (!row) return null;
    const tools: unknown = JSON.parse(row.tools_json);
    return Array.isArray(tools) ? tools : null;
  }

  /** The instructions `server` gave last under this config entry (as kept: masked), or null when none are known. */
  instructions(server: string, config: unknown): string | null {
    const row = stmt(this.db, "SELECT instructions FROM upstream_tools WHERE server = ? AND config_hash = ?").get(
      server,
      this.configHash(config),
    ) as { instructions: string | null } | undefined;
    return typeof row?.instructions === "string" ? row.instructions : null;
  }

  /** Records what `server` listed under this config entry, and the instructions it gave (null: none). */
  save(server: string, config: unknown, tools: readonly unknown[], instructions: string | null = null): void {
    const hash = this.configHash(config);
    const now = this.now();
    this.db.transaction(() => {
      stmt(
        this.db,
        `INSERT INTO upstream_tools (server, config_hash, tools_json, listed_at, instructions) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (server, config_hash) DO UPDATE SET tools_json = excluded.tools_json, listed_at = excluded.listed_at,
           instructions = excluded.instructions`,
      ).run(server, hash, JSON.stringify(tools), now, instructions);
      stmt(this.db, "DELETE FROM upstream_tools WHERE server = ? AND config_hash <> ? AND listed_at < ?").run(
        server,
        hash,
        now - STALE_ENTRY_MS,
      );
    })();
  }
}

/** The catalog in a blob store's index. */
export function storeToolCatalog(store: BlobStore): ToolCatalog {
  return new ToolCatalog(store.db, () => store.now);
}
