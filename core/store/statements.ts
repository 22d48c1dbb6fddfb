/** Prepared statements, cached per connection: preparing SQL on every call was a measurable share of a proxied call. */
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";

const caches = new WeakMap<Db, Map<string, Statement>>();

/** The prepared statement for `sql` on `db`; SQL text must be constant (no values interpolated). */
export function stmt(db: Db, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let s = cache.get(sql);
  if (!s) {
    s = db.prepare(sql);
    cache.set(sql, s);
  }
  return s;
}
