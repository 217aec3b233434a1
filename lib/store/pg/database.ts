/**
 * The store's database interface (database.ts) on PostgreSQL, over the synchronous bridge:
 * statements are translated once (translate.ts) and run with their arguments; a script runs as
 * one simple query. The store's tables live in their own schema, `localbench` (made when
 * missing), so a database that already holds other tables is shared without a clash.
 *
 * @module
 */
import type { SqlNamed, SqlParam, Statement, StoreDb } from "../database.ts";
import { type BridgeOptions, PgBridge, PgError } from "./bridge.ts";
import { bind, translate, type Translated } from "./translate.ts";
import { PG_VERSION_TABLE_SQL } from "./schema.ts";

/** The PostgreSQL schema holding the store's tables. */
export const PG_SCHEMA = "localbench";

type Args = (SqlParam | SqlNamed)[];

class PgStatement implements Statement {
  #db: PgDatabase;
  #sql: Translated;

  constructor(db: PgDatabase, sql: Translated) {
    this.#db = db;
    this.#sql = sql;
  }

  #query(args: Args) {
    return this.#db.bridge.query(this.#sql.text, bind(this.#sql.slots, args));
  }

  get(...args: Args): Record<string, unknown> | undefined {
    return this.#query(args).rows[0];
  }

  all(...args: Args): Record<string, unknown>[] {
    return this.#query(args).rows;
  }

  run(...args: Args): { changes: number } {
    return { changes: this.#query(args).rowCount };
  }
}

/**
 * The advisory lock under which a connection makes the store's schema and version table: two
 * processes opening a new store at once may otherwise both pass `IF NOT EXISTS` and the second
 * fail on the catalog's unique index (23505), as a duplicate schema or table (42P06, 42P07) or as
 * a duplicate row type (42710, "type schema_version already exists").
 */
const BOOTSTRAP_LOCK = 0x6c62_7363; // "lbsc"

/** Makes the store's schema and version table when missing, one process at a time. */
function bootstrap(bridge: PgBridge): void {
  bridge.query("SELECT pg_advisory_lock($1)", [BOOTSTRAP_LOCK]);
  try {
    // Each statement its own transaction: it sees what the process that held the lock made.
    const found = bridge.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [PG_SCHEMA]);
    if (found.rows.length === 0) {
      ignoring(DUPLICATE, () => bridge.query(`CREATE SCHEMA IF NOT EXISTS ${PG_SCHEMA}`));
    }
    bridge.query(`SET search_path TO ${PG_SCHEMA}`);
    // The version table, which the migrations lock (db.ts), exists before they run.
    ignoring(DUPLICATE, () => bridge.query(PG_VERSION_TABLE_SQL));
  } finally {
    bridge.query("SELECT pg_advisory_unlock($1)", [BOOTSTRAP_LOCK]);
  }
}

/** A concurrent creation by a session outside the lock (an older localbench): it exists then. */
const DUPLICATE = ["23505", "42P06", "42P07", "42710"];

/** Runs `fn`, ignoring the server's errors of the given SQLSTATEs (a concurrent creation). */
function ignoring(states: string[], fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof PgError) || !states.includes(err.sqlState ?? "")) throw err;
  }
}

/** A PostgreSQL connection with the store's interface. */
export class PgDatabase implements StoreDb {
  readonly dialect = "postgres";
  readonly bridge: PgBridge;
  #inTransaction = false;
  #translated = new Map<string, Translated>();

  constructor(bridge: PgBridge) {
    this.bridge = bridge;
  }

  /** Connects to `url` and selects (making it when missing) the store's schema. */
  static connect(url: string, options: BridgeOptions = {}): PgDatabase {
    const db = new PgDatabase(PgBridge.connect(url, options));
    try {
      bootstrap(db.bridge);
    } catch (err) {
      db.close();
      throw err;
    }
    return db;
  }

  prepare(sql: string): Statement {
    let t = this.#translated.get(sql);
    if (!t) {
      t = translate(sql);
      if (this.#translated.size > 500) this.#translated.clear();
      this.#translated.set(sql, t);
    }
    return new PgStatement(this, t);
  }

  exec(sql: string): void {
    const head = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase();
    const opens = head === "BEGIN" || head === "START";
    try {
      this.bridge.query(sql);
    } catch (err) {
      // A script opening a transaction whose later statement the server refused (`BEGIN; SELECT
      // … FOR UPDATE`, transaction.ts) leaves the transaction open, aborted: for the rollback.
      if (opens && err instanceof PgError && err.sqlState !== undefined) {
        this.#inTransaction = true;
      }
      throw err;
    }
    if (opens) this.#inTransaction = true;
    if (head === "COMMIT" || head === "ROLLBACK" || head === "END") this.#inTransaction = false;
  }

  get isTransaction(): boolean {
    return this.#inTransaction;
  }

  get isOpen(): boolean {
    return this.bridge.isOpen;
  }

  close(): void {
    this.bridge.close();
  }
}
