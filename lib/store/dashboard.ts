/**
 * Read queries of the web dashboard: the results table, the dashboard statistics object and the
 * cache operations (the results table: results_table.ts; the statistics: dashboard_stats.ts; one
 * model's history: history.ts). Every aggregation runs in SQL.
 *
 * @module
 */
import { backup } from "node:sqlite";
import { isPostgres, sqliteOf, type StoreDb } from "./database.ts";
import { clearResults } from "./clear.ts";
import { copyStore } from "./copy.ts";
import { openDatabase, transaction } from "./db.ts";

export {
  RESULTS_COLUMNS,
  resultsColumns,
  resultsTable,
  type ResultsTableRow,
} from "./results_table.ts";
export { type DashboardStats, dashboardStats } from "./dashboard_stats.ts";

export { comparableModels, comparableVariants, HISTORY_LIMITS, modelHistory } from "./history.ts";
export type {
  ComparableVariant,
  HistoryPoint,
  HistorySeries,
  HistoryStats,
  HistoryWindow,
  ModelHistory,
} from "./history.ts";

/**
 * Deletes a model variant and its history; returns the number of results removed (0: none).
 * A write transaction (transaction.ts): the store's write lock first, as every writer.
 */
export function deleteModel(db: StoreDb, modelKey: string): number | null {
  return transaction(db, () => {
    const found = db.prepare("SELECT id FROM models WHERE model_key = ?").get(modelKey) as
      | { id: number }
      | undefined;
    if (!found) return null;
    const n = db.prepare("SELECT COUNT(*) AS n FROM results WHERE model_id = ?").get(found.id) as {
      n: number;
    };
    db.prepare("DELETE FROM models WHERE id = ?").run(found.id);
    return n.n;
  });
}

/**
 * Copies the database to `backupFile` with SQLite's online backup (a PostgreSQL store: its
 * finished results copied into a new SQLite store there), then deletes every model,
 * result and run (clear.ts: in time that does not grow with the history). Returns the number of
 * results deleted.
 *
 * Not `VACUUM INTO`: it attaches the target database, which Deno refuses (`too many attached
 * databases - max 0`) unless the process runs with `--allow-all` — the tasks grant named
 * permissions only.
 */
export async function clearCache(db: StoreDb, backupFile: string): Promise<number> {
  if (isPostgres(db)) {
    // PostgreSQL: the backup is a SQLite store of its finished results (copy.ts), made first.
    const copy = openDatabase(backupFile);
    try {
      copyStore(db, copy);
    } finally {
      copy.close();
    }
    return clearResults(db);
  }
  await backup(sqliteOf(db), backupFile);
  return clearResults(db);
}
