/**
 * The newest load curve of each variant of a model, for the dashboard's model page and
 * `GET /api/comparison/{model_name}`.
 *
 * @module
 */
import type { StoreDb } from "./database.ts";
import { plain, type Row } from "./rows.ts";
import { FINISHED } from "./status.ts";

/** One variant's newest load curve. */
export interface LoadCurve {
  model_key: string;
  result_id: number;
  finished_at: string | null;
  /** Levels of both modes, concurrency first, each ascending (store `load_levels`). */
  levels: Row[];
}

/**
 * The newest finished result with a load curve of every variant of `name` (a `model_name` or a
 * variant's `model_key`), variants in key order; empty when none has one.
 */
export function loadCurves(db: StoreDb, name: string): LoadCurve[] {
  const newest = db.prepare(
    `SELECT m.model_key, MAX(r.id) AS result_id FROM models m
     CROSS JOIN results r INDEXED BY idx_results_status_model ON r.status IN ${FINISHED} AND r.model_id = m.id
     WHERE (m.model_name = :name OR m.model_key = :name)
       AND EXISTS (SELECT 1 FROM load_levels l WHERE l.result_id = r.id)
     GROUP BY m.id ORDER BY m.model_key`,
  ).all({ name }) as { model_key: string; result_id: number }[];
  const levels = db.prepare(
    "SELECT * FROM load_levels WHERE result_id = ? ORDER BY mode, level, id",
  );
  const finished = db.prepare("SELECT finished_at FROM results WHERE id = ?");
  return newest.map((n) => ({
    model_key: n.model_key,
    result_id: n.result_id,
    finished_at: (finished.get(n.result_id) as { finished_at: string | null }).finished_at,
    levels: levels.all(n.result_id).map((r) => plain<Row>(r)),
  }));
}
