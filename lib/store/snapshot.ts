/**
 * JSON answers computed once per state of the database: the key is SQLite's `data_version`
 * (changes when another connection commits) with this connection's `total_changes()` (changes
 * when it writes). Concurrent and repeated reads of an unchanged store share one encoded body
 * and one ETag instead of each querying, building and encoding its own copy — the allocation
 * churn that kept the process large after a burst of `/api/results` requests.
 *
 * @module
 */
import { isPostgres, type StoreDb } from "./database.ts";

/** An encoded JSON body and its entity tag. */
export interface JsonSnapshot {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** The version of the database as this connection sees it. */
export function storeVersion(db: StoreDb): string {
  if (isPostgres(db)) {
    // Counted by statement triggers in the writing transaction (pg/schema.ts).
    return `pg.${db.prepare("SELECT n FROM store_changes WHERE id = 1").get()?.n}`;
  }
  const data = db.prepare("PRAGMA data_version").get() as { data_version: number };
  const own = db.prepare("SELECT total_changes() AS n").get() as { n: number };
  return `${data.data_version}.${own.n}`;
}

/** Snapshots of one database, by name. */
export class SnapshotCache {
  #db: StoreDb;
  #entries = new Map<string, { version: string; snapshot: JsonSnapshot }>();
  #serial = 0;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /** The snapshot named `name`, built again with `build` only when the database changed. */
  get(name: string, build: (db: StoreDb) => unknown): JsonSnapshot {
    const version = storeVersion(this.#db);
    const found = this.#entries.get(name);
    if (found && found.version === version) return found.snapshot;
    const bytes = new TextEncoder().encode(JSON.stringify(build(this.#db)));
    const snapshot = { bytes, etag: `W/"${name}-${version}-${++this.#serial}"` };
    this.#entries.set(name, { version, snapshot });
    return snapshot;
  }
}
