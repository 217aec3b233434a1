/**
 * One result per identity: a grid result (several prompt or output lengths measured in one
 * model load) is split into one result per cell, each with its own parameters hash (that cell's
 * lengths alone, the hash a run of that one cell gets), its own runs, grid row and aggregates.
 * The first cell keeps the result's id and what it measured besides its cells (parallel rounds,
 * the load curve); the other cells get new results that copy its metadata.
 *
 * A benchmark splits its grid as it ends; schema 9 split the grid results stored before.
 *
 * @module
 */
import { columnsOf, isPostgres, type StoreDb } from "./database.ts";
import { aggregateRuns } from "./aggregate.ts";
import {
  cellLabel,
  cellParams,
  type GridCell,
  type IdentityParams,
  paramsHash,
} from "./identity.ts";
import { insertRow, plain, type Row, updateRow } from "./rows.ts";
import { FINISHED } from "./status.ts";

/** Columns of a result that belong to the whole grid's measurement, not to one cell. */
const NOT_COPIED = new Set(["id", "params_hash", "params_json"]);
/** Columns a cell without parallel rounds or load curve has none of. */
const REST_ONLY = /^(n_parallel|parallel_)/;

const num = (v: unknown): number | null => (typeof v === "number" ? v : null);

/** The ratio `mean ÷ per` (a size in GiB or billions from the stored speed per unit), or null. */
function divisor(row: Row, per: string): number | null {
  const mean = num(row.tokens_per_sec_mean);
  const ratio = num(row[per]);
  return mean !== null && ratio !== null && ratio > 0 ? mean / ratio : null;
}

/**
 * Which runs are a cell's sequential runs (not the parallel rounds' or the load curve's): its
 * targets, and its depth where the store has the column (a store older than `--kv-depth` is
 * split by schema 9 before the column is added, and has no depths).
 */
function cellRunsWhere(withDepth: boolean, db: StoreDb): string {
  // SQLite's `IS` compares nulls as values; PostgreSQL says IS NOT DISTINCT FROM.
  const is = isPostgres(db) ? "IS NOT DISTINCT FROM" : "IS";
  return `result_id = ? AND prompt_tokens_target ${is} ? AND gen_tokens_target ${is} ?
    ${withDepth ? `AND kv_depth ${is} ?` : ""} AND COALESCE(parallel, 1) = 1
    AND load_mode IS NULL`;
}

/**
 * Splits one finished grid result; returns the ids of its results, the first cell's (the
 * result's own id) first. A result with one cell or none is returned as it is.
 */
export function splitGridResult(db: StoreDb, resultId: number): number[] {
  const result = db.prepare("SELECT * FROM results WHERE id = ?").get(resultId);
  if (!result) return [];
  const row = plain<Row>(result);
  const cells = db.prepare("SELECT * FROM grid_cells WHERE result_id = ? ORDER BY id")
    .all(resultId).map((r) => plain<Row>(r));
  if (cells.length < 2 || !FINISHED.includes(`'${row.status}'`)) return [resultId];
  let params: IdentityParams;
  try {
    params = JSON.parse(String(row.params_json)) as IdentityParams;
  } catch {
    return [resultId]; // parameters that cannot be read: left as stored
  }
  const sizeGiB = divisor(row, "tokens_per_sec_per_gb");
  const billions = divisor(row, "tokens_per_sec_per_billion_params");
  const workload = (() => {
    try {
      return row.workload_json ? JSON.parse(String(row.workload_json)) : null;
    } catch {
      return null;
    }
  })();
  // An older store may lack some aggregate columns until ensureColumns runs after the migrations.
  const have = new Set(columnsOf(db, "results"));
  const known = (r: Row): Row => Object.fromEntries(Object.entries(r).filter(([k]) => have.has(k)));
  const withDepth = columnsOf(db, "runs").includes("kv_depth");
  const ids: number[] = [];
  let anyFailed = false;
  const figures: { id: number; failed: number }[] = [];
  for (const [i, grid] of cells.entries()) {
    const cell: GridCell = {
      prompt_tokens: num(grid.prompt_tokens),
      gen_tokens: num(grid.gen_tokens),
      kv_depth: num(grid.kv_depth) || null,
    };
    const first = i === 0;
    const cellP = cellParams(params, cell, first);
    const keys = [
      resultId,
      cell.prompt_tokens,
      cell.gen_tokens,
      ...(withDepth ? [cell.kv_depth ?? null] : []),
    ];
    const runs = db.prepare(
      `SELECT * FROM runs WHERE ${cellRunsWhere(withDepth, db)} ORDER BY run_index, id`,
    )
      .all(...keys).map((r) => plain<Row>(r));
    const ok = runs.filter((r) => (r.status ?? "ok") === "ok");
    const failed = runs.filter((r) => r.status === "failed").length;
    const excluded = runs.filter((r) => r.status === "excluded").length;
    anyFailed ||= failed > 0;
    const values: Row = known({
      ...aggregateRuns(ok, sizeGiB, billions),
      params_hash: paramsHash(cellP),
      params_json: JSON.stringify(cellP),
      runs_ok: ok.length,
      runs_failed: failed,
      runs_excluded: excluded,
      ...(workload
        ? { workload_json: JSON.stringify({ ...workload, cells: [cellLabel(cell)] }) }
        : {}),
    });
    let id = resultId;
    if (first) {
      updateRow(db, "results", resultId, values);
    } else {
      const copy: Row = {};
      for (const [k, v] of Object.entries(row)) {
        if (NOT_COPIED.has(k)) continue;
        copy[k] = REST_ONLY.test(k) ? (k === "n_parallel" ? 1 : null) : v;
      }
      id = insertRow(db, "results", { ...copy, ...values });
      db.prepare(`UPDATE runs SET result_id = ? WHERE ${cellRunsWhere(withDepth, db)}`).run(
        id,
        ...keys,
      );
      db.prepare("UPDATE grid_cells SET result_id = ? WHERE id = ?").run(id, Number(grid.id));
    }
    ids.push(id);
    figures.push({ id, failed });
  }
  // A cell with a failed run or no decode speed is partial; the first cell also keeps a partial
  // status the whole grid had for its other requests (parallel rounds, load levels).
  for (const [i, f] of figures.entries()) {
    const speed = db.prepare("SELECT tokens_per_sec_mean AS v FROM results WHERE id = ?")
      .get(f.id) as { v: number | null };
    const inherited = i === 0 && row.status === "partial" && !anyFailed;
    const status = f.failed > 0 || speed.v === null || inherited ? "partial" : "ok";
    db.prepare("UPDATE results SET status = ? WHERE id = ?").run(status, f.id);
  }
  return ids;
}

/** Splits every finished grid result of the store (schema 9); returns how many were split. */
export function splitGridResults(db: StoreDb): number {
  const grids = db.prepare(
    `SELECT g.result_id AS id FROM grid_cells g JOIN results r ON r.id = g.result_id
     WHERE r.status IN ${FINISHED} GROUP BY g.result_id HAVING COUNT(*) > 1`,
  ).all() as { id: number }[];
  for (const g of grids) splitGridResult(db, g.id);
  return grids.length;
}
