/**
 * Copying one store into another (`--store-copy-to`: a SQLite store into PostgreSQL; the other
 * way for a backup of a PostgreSQL store), in one transaction of the target, so an interrupted
 * copy writes nothing. Ids are mapped, not kept: the target may already hold results of its own
 * (another machine's) with the same ids. A model is the target's of the same `model_key`; a
 * result is the same when its variant, parameters, backend, start time and owner are, so copying
 * again adds nothing. Results still running are left out (copy again once they are finished).
 *
 * @module
 */
import { columnsOf, type SqlParam, type StoreDb } from "./database.ts";
import { transaction } from "./db.ts";
import { insertRow, type Row } from "./rows.ts";

/** What {@linkcode copyStore} did. */
export interface CopyOutcome {
  /** Results added to the target, and their runs. */
  results: number;
  runs: number;
  /** Results the target held already. */
  skipped: number;
  /** Results left out because they are still running. */
  running: number;
}

/** The tables below a result, copied with it. */
const CHILDREN = ["runs", "grid_cells", "load_levels"] as const;

const keyOf = (r: Record<string, unknown>) =>
  JSON.stringify([r.model_key, r.params_hash, r.backend, r.started_at, r.owner ?? null]);

/** The row with only the target's columns, without its id. */
function fitted(row: Record<string, unknown>, columns: Set<string>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (k !== "id" && columns.has(k)) out[k] = v as Row[string];
  }
  return out;
}

/** Inserts `rows` into `table` in one statement (they share their columns). */
function insertAll(db: StoreDb, table: string, rows: Row[]): void {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]!);
  const one = `(${cols.map(() => "?").join(", ")})`;
  // At most 500 rows a statement: SQLite's and PostgreSQL's limits on bound values stay far.
  for (let i = 0; i < rows.length; i += 500) {
    const part = rows.slice(i, i + 500);
    db.prepare(
      `INSERT INTO ${table} (${cols.join(", ")}) VALUES ${part.map(() => one).join(", ")}`,
    ).run(...part.flatMap((r) => cols.map((c) => (r[c] ?? null) as SqlParam)));
  }
}

/** Copies every finished result of `from` (with its model and rows) into `to`. */
export function copyStore(from: StoreDb, to: StoreDb): CopyOutcome {
  const target = Object.fromEntries(
    ["machines", "models", "results", ...CHILDREN].map((t) => [t, new Set(columnsOf(to, t))]),
  );
  // The machines results name (their id is the machine's own, the same in every store).
  const machines = columnsOf(from, "machines").length > 0
    ? from.prepare("SELECT * FROM machines ORDER BY id").all()
    : [];
  const models = from.prepare("SELECT * FROM models ORDER BY id").all();
  const results = from.prepare(
    "SELECT r.*, m.model_key FROM results r JOIN models m ON m.id = r.model_id ORDER BY r.id",
  ).all();
  return transaction(to, () => {
    // Counted inside: a transaction run again (transaction.ts) counts afresh.
    const outcome: CopyOutcome = { results: 0, runs: 0, skipped: 0, running: 0 };
    const known = new Set(
      to.prepare(
        `SELECT m.model_key, r.params_hash, r.backend, r.started_at, r.owner
         FROM results r JOIN models m ON m.id = r.model_id`,
      ).all().map(keyOf),
    );
    const haveMachine = to.prepare("SELECT 1 AS x FROM machines WHERE id = ?");
    for (const m of machines) {
      if (!haveMachine.get(String(m.id))) {
        insertAll(to, "machines", [{ ...fitted(m, target.machines!), id: String(m.id) }]);
      }
    }
    const modelIds = new Map<number, number>();
    const findModel = to.prepare("SELECT id FROM models WHERE model_key = ?");
    for (const m of models) {
      const found = findModel.get(String(m.model_key));
      modelIds.set(
        Number(m.id),
        found ? Number(found.id) : insertRow(to, "models", fitted(m, target.models!)),
      );
    }
    for (const r of results) {
      if (r.status === "running") {
        outcome.running++;
        continue;
      }
      const key = keyOf(r);
      if (known.has(key)) {
        outcome.skipped++;
        continue;
      }
      known.add(key);
      const id = insertRow(to, "results", {
        ...fitted(r, target.results!),
        model_id: modelIds.get(Number(r.model_id))!,
      });
      for (const table of CHILDREN) {
        const rows = from.prepare(`SELECT * FROM ${table} WHERE result_id = ? ORDER BY id`)
          .all(Number(r.id)).map((c) => ({ ...fitted(c, target[table]!), result_id: id }));
        insertAll(to, table, rows);
        if (table === "runs") outcome.runs += rows.length;
      }
      outcome.results++;
    }
    return outcome;
  });
}
