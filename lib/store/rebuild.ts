/**
 * Rebuilding a table whose definition SQLite cannot alter in place (a CHECK constraint): SQLite's
 * own procedure (https://sqlite.org/lang_altertable.html#otheralter) — create the new table,
 * copy every row, drop the old one, rename the new one, create its indexes, triggers and the
 * views again — inside the migration's transaction, with foreign keys off around it (dropping a
 * parent table would otherwise cascade into its children) and checked before the commit.
 *
 * The table's columns are those of its stored definition, so optional columns added to an older
 * database are kept; `node:sqlite` runs in defensive mode, so `writable_schema` is no way round.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { StorageError } from "../error.ts";

interface SchemaEntry {
  type: string;
  name: string;
  sql: string;
}

/**
 * Rebuilds `table` with the definition `edit` makes of its current `CREATE TABLE` statement.
 * Runs inside a transaction the caller holds, with foreign keys off (see
 * {@linkcode withoutForeignKeys}).
 */
export function rebuildTable(
  db: DatabaseSync,
  table: string,
  edit: (createSql: string) => string,
): void {
  const brokenKeys = () => db.prepare("PRAGMA foreign_key_check").all().length;
  const brokenBefore = brokenKeys();
  const entry = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?")
    .get(table) as { sql: string } | undefined;
  if (!entry) throw new StorageError(`Cannot rebuild table ${table}: it does not exist`);
  // Its indexes and triggers go with it; views are dropped first and made again (a view naming a
  // table that is gone for a moment would make the rename fail).
  const dependents = db.prepare(
    `SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL
       AND ((type IN ('index', 'trigger') AND tbl_name = ?) OR type = 'view')`,
  ).all(table) as unknown as SchemaEntry[];
  for (const v of dependents.filter((d) => d.type === "view")) db.exec(`DROP VIEW "${v.name}"`);
  const created = edit(entry.sql);
  const temp = `${table}_rebuilt`;
  const head = new RegExp(`^CREATE TABLE\\s+("${table}"|${table})\\b`, "i");
  if (!head.test(created)) throw new StorageError(`Cannot rebuild ${table}: unexpected definition`);
  db.exec(created.replace(head, `CREATE TABLE "${temp}"`));
  db.exec(`INSERT INTO "${temp}" SELECT * FROM "${table}"`);
  db.exec(`DROP TABLE "${table}"`);
  db.exec(`ALTER TABLE "${temp}" RENAME TO "${table}"`);
  for (const d of dependents) db.exec(d.sql);
  // Only what the rebuild broke counts: an orphan row from before is not a reason to refuse.
  const broken = brokenKeys() - brokenBefore;
  if (broken > 0) throw new StorageError(`Rebuilding ${table} broke ${broken} foreign key(s)`);
}

/**
 * Runs `fn` with foreign-key enforcement off (a pragma that only acts outside a transaction), and
 * turns it back on after, as it was.
 */
export function withoutForeignKeys<T>(db: DatabaseSync, fn: () => T): T {
  const on = (db.prepare("PRAGMA foreign_keys").get() as { foreign_keys: number }).foreign_keys;
  if (on) db.exec("PRAGMA foreign_keys = OFF");
  try {
    return fn();
  } finally {
    if (on) db.exec("PRAGMA foreign_keys = ON");
  }
}
