/**
 * Clearing the results store: every model variant and everything that hangs off it (results,
 * runs, grid cells, load levels, `identity_latest`), in one transaction, in time that does not grow
 * with the history.
 *
 * `DELETE FROM models` with its cascade visits every row: for each result the `identity_latest`
 * trigger looks the newest result up again, for each run the `totals` trigger updates a row, and
 * every deleted parent row is checked against its children (about 10 s for 1 M runs, 40 s on a
 * busy machine). SQLite empties a table page by page instead (the "truncate optimisation") when
 * the table has no triggers and no foreign-key processing is needed: so the triggers of the
 * cleared tables are dropped and created again from their own stored SQL inside the
 * transaction, foreign keys are off for it (every table of the foreign-key graph below `models`
 * is emptied, so nothing can dangle), and the derived `identity_latest` and `totals` are computed
 * again.
 *
 * @module
 */
import { isPostgres, type StoreDb } from "./database.ts";
import { PG_REFRESH_DERIVED_SQL } from "./pg/schema.ts";
import { transaction } from "./db.ts";
import { REFRESH_DERIVED_SQL } from "./latest.ts";
import { BUMP_RESULT_EDITS_SQL } from "./result_edits.ts";

/** Double-quoted SQL identifier. */
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * `models` and every table that references it through foreign keys, directly or through
 * another such table, children before parents.
 */
export function tablesBelow(db: StoreDb, root = "models"): string[] {
  const tables = (db.prepare(
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
  ).all() as { name: string }[]).map((r) => r.name);
  // Table names compare without case in SQLite (`REFERENCES Models(id)` points at `models`).
  const parents = new Map<string, Set<string>>();
  for (const t of tables) {
    const refs = db.prepare(`SELECT "table" AS parent FROM pragma_foreign_key_list(?)`).all(t) as {
      parent: string;
    }[];
    parents.set(t, new Set(refs.map((r) => r.parent.toLowerCase())));
  }
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (table: string) => {
    seen.add(table.toLowerCase());
    for (const [child, ps] of parents) {
      if (ps.has(table.toLowerCase()) && !seen.has(child.toLowerCase())) visit(child);
    }
    order.push(table); // after all of its children
  };
  const start = tables.find((t) => t.toLowerCase() === root.toLowerCase());
  if (start !== undefined) visit(start);
  return order;
}

/**
 * Deletes every model variant and all that hangs off it; returns the number of results deleted.
 * One transaction: a failure leaves the store as it was.
 *
 * @throws {Error} when called inside an open transaction (foreign keys cannot be switched there)
 */
export function clearResults(db: StoreDb): number {
  if (db.isTransaction) throw new Error("Cannot clear the results store inside a transaction");
  if (isPostgres(db)) return clearPostgres(db);
  const tables = tablesBelow(db);
  const names = tables.map((t) => `'${t.replaceAll("'", "''")}'`).join(", ");
  const triggers = db.prepare(
    `SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name IN (${names})`,
  ).all() as { name: string; sql: string }[];
  const fk = (db.prepare("PRAGMA foreign_keys").get() as { foreign_keys: number }).foreign_keys;
  db.exec("PRAGMA foreign_keys = OFF");
  try {
    return transaction(db, () => {
      const { n } = db.prepare("SELECT COUNT(*) AS n FROM results").get() as { n: number };
      for (const t of triggers) db.exec(`DROP TRIGGER ${ident(t.name)}`);
      for (const t of tables) db.exec(`DELETE FROM ${ident(t)}`);
      for (const t of triggers) db.exec(t.sql);
      db.exec(REFRESH_DERIVED_SQL);
      // The dropped triggers did not count the deleted results (ids are used again).
      db.exec(BUMP_RESULT_EDITS_SQL);
      return n;
    });
  } finally {
    if (fk) db.exec("PRAGMA foreign_keys = ON");
  }
}

/**
 * PostgreSQL: `TRUNCATE models … CASCADE` empties the variants and every table that refers to
 * them (results, runs, grid cells, load levels, identity_latest) in one statement that fires no
 * row trigger; the run total is set again. Ids start again at 1, as in an emptied SQLite store.
 */
function clearPostgres(db: StoreDb): number {
  return transaction(db, () => {
    const n = Number(db.prepare("SELECT COUNT(*) AS n FROM results").get()!.n);
    db.exec("TRUNCATE models RESTART IDENTITY CASCADE");
    db.exec(PG_REFRESH_DERIVED_SQL);
    // Counted by the TRUNCATE trigger too; said here for what the cache needs (result_edits.ts).
    db.exec(BUMP_RESULT_EDITS_SQL);
    return n;
  });
}
