/**
 * The newest load curve of each variant of a model on each machine, for the dashboard's
 * Comparison page and `GET /api/comparison/{model_name}`.
 *
 * @module
 */
import type { StoreDb } from "./database.ts";
import { plain, type Row } from "./rows.ts";
import { FINISHED } from "./status.ts";
import { levelPercentiles } from "./level_percentiles.ts";
import { machineLabels } from "./machines.ts";

/** One variant's newest load curve on one machine. */
export interface LoadCurve {
  model_key: string;
  /** The machine it ran on (null: unknown) and its name (host name, unique here). */
  machine_id: string | null;
  machine_name: string | null;
  result_id: number;
  finished_at: string | null;
  /**
   * Levels of both modes, concurrency first, each ascending (store `load_levels`); with chosen
   * percentiles, each also has `<metric>_p<percentile>` for them (`latency_ms_p99.9`, `ttft_ms_p95`,
   * `tpot_ms_p50`…), computed from the level's requests where no column stores it.
   */
  levels: Row[];
  /** The `--percentiles` stored with the result (`workload_json.percentiles`), or null. */
  percentiles: number[] | null;
}

/** The `--percentiles` stored with a result, or null. */
function storedPercentiles(workloadJson: unknown): number[] | null {
  if (typeof workloadJson !== "string") return null;
  try {
    const list = JSON.parse(workloadJson)?.percentiles;
    if (!Array.isArray(list)) return null;
    const ps = list.filter((p): p is number => typeof p === "number" && p > 0 && p < 100);
    return ps.length ? ps.sort((a, b) => a - b) : null;
  } catch {
    return null;
  }
}

/**
 * The newest finished result with a load curve of every variant of `name` (a `model_name` or a
 * variant's `model_key`) on each machine, variants in key order, then machines by name; empty
 * when none has one. With `machine` (an id; null: an unknown machine), that machine's only.
 */
export function loadCurves(db: StoreDb, name: string, machine?: string | null): LoadCurve[] {
  const all = db.prepare(
    `SELECT m.model_key, r.machine_id, MAX(r.id) AS result_id FROM models m
     CROSS JOIN results r INDEXED BY idx_results_status_model ON r.status IN ${FINISHED} AND r.model_id = m.id
     WHERE (m.model_name = :name OR m.model_key = :name)
       AND EXISTS (SELECT 1 FROM load_levels l WHERE l.result_id = r.id)
     GROUP BY m.id, m.model_key, r.machine_id`,
  ).all({ name }).map((r) =>
    plain<{ model_key: string; machine_id: string | null; result_id: number }>(r)
  );
  const picked = machine === undefined ? all : all.filter((n) => n.machine_id === machine);
  const names = machineLabels(db);
  const newest = picked.map((n) => ({
    ...n,
    machine_name: n.machine_id === null ? null : names.get(n.machine_id) ?? n.machine_id,
  })).sort((a, b) =>
    a.model_key < b.model_key ? -1 : a.model_key > b.model_key ? 1 : (a.machine_name ?? "")
      .localeCompare(b.machine_name ?? "")
  );
  const levels = db.prepare(
    "SELECT * FROM load_levels WHERE result_id = ? ORDER BY mode, level, id",
  );
  const result = db.prepare("SELECT finished_at, workload_json FROM results WHERE id = ?");
  const requests = db.prepare(
    `SELECT load_mode, load_level, status, total_ms, ttft_ms, tpot_ms FROM runs
     WHERE result_id = ? AND load_mode IS NOT NULL`,
  );
  return newest.map((n) => {
    const r = result.get(n.result_id) as { finished_at: string | null; workload_json: unknown };
    const percentiles = storedPercentiles(r.workload_json);
    let rows = levels.all(n.result_id).map((l) => plain<Row>(l));
    if (percentiles) {
      const runs = requests.all(n.result_id).map((x) => plain<Row>(x));
      rows = rows.map((l) => {
        const out: Row = { ...l };
        for (const [metric, values] of Object.entries(levelPercentiles(l, runs, percentiles))) {
          for (const [label, v] of Object.entries(values)) out[`${metric}_${label}`] = v;
        }
        return out;
      });
    }
    return {
      model_key: n.model_key,
      machine_id: n.machine_id,
      machine_name: n.machine_name,
      result_id: n.result_id,
      finished_at: r.finished_at,
      levels: rows,
      percentiles,
    };
  });
}
