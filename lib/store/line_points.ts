/**
 * The points of each line of a model (result ids and speeds, in result order) kept in memory per
 * SQLite connection, so the comparison's downsampled chart after a new result reads that result
 * alone rather than every point of the model again (at 13,739 points ~40 ms of SQLite per
 * answer). A line is extended only when `line_sums` (kept by triggers, line_sums.ts) shows that
 * it changed by appends alone: as many new changes (`rev`) as new results (`total`), its first
 * result the same, and the extended points agreeing with the line's kept count, measured count,
 * extremes and last result. Anything else (a delete, a result finishing out of order, a changed
 * speed, a line computed from scratch) reads the line whole again. The last 8 models are kept.
 *
 * @module
 */
import { sqliteOf, type StoreDb } from "./database.ts";
import { FINISHED } from "./status.ts";

/** The figures of a line `line_sums` keeps, as `history_sums.ts` reads them. */
export interface LineState {
  model_id: number;
  backend: string;
  params_hash: string;
  machine_id: string | null;
  total: number;
  n: number;
  min_y: number | null;
  max_y: number | null;
  first_id: number;
  /** The newest finished result of the line. */
  last_id: number;
  /** Changes to the line; -1 when computed from its results (stale). */
  rev: number;
}

/** A line's points: result ids in order and their speeds (null: none). */
export interface LinePoints {
  ids: number[];
  ys: (number | null)[];
}

interface Kept extends LinePoints {
  first_id: number;
  rev: number;
}

const MODELS = 8;
const kept = new WeakMap<StoreDb, Map<string, Map<string, Kept>>>();

const lineKey = (l: LineState) =>
  [l.model_id, l.backend, l.params_hash, l.machine_id ?? ""].join("\u0000");

const LINE = `r.status IN ${FINISHED} AND r.model_id = :model_id AND r.backend = :backend
  AND r.params_hash = :hash AND r.machine_id IS :machine`;

function rows(db: StoreDb, sql: string, params: Record<string, string | number | null>) {
  // node:sqlite's arrays of columns (`setReturnArrays`, not in the typings yet).
  const stmt = sqliteOf(db).prepare(sql) as unknown as {
    setReturnArrays(on: boolean): void;
    all(params: Record<string, string | number | null>): unknown[];
  };
  stmt.setReturnArrays(true);
  return stmt.all(params) as unknown as [number, unknown][];
}

function lineParams(l: LineState) {
  return {
    model_id: l.model_id,
    backend: l.backend,
    hash: l.params_hash,
    machine: l.machine_id,
  };
}

/** The whole line, from its results. */
function readLine(db: StoreDb, l: LineState): Kept {
  const points = rows(
    db,
    `SELECT r.id, r.tokens_per_sec_mean FROM results r INDEXED BY idx_results_status_model
     WHERE ${LINE} ORDER BY r.id`,
    lineParams(l),
  );
  return {
    ids: points.map((p) => Number(p[0])),
    ys: points.map((p) => typeof p[1] === "number" ? p[1] : null),
    first_id: l.first_id,
    rev: l.rev,
  };
}

/** Whether `points` hold what `line_sums` says the line holds. */
function agrees(points: LinePoints, l: LineState): boolean {
  if (points.ids.length !== l.total || points.ids[0] !== l.first_id) return false;
  if (points.ids.at(-1) !== l.last_id) return false;
  let n = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (const y of points.ys) {
    if (y === null) continue;
    n++;
    if (y < lo) lo = y;
    if (y > hi) hi = y;
  }
  return n === l.n && (n === 0 || (lo === l.min_y && hi === l.max_y));
}

/** `k` extended with the results after its last one, or null when that is not the line now. */
function extended(db: StoreDb, k: Kept, l: LineState): Kept | null {
  const added = l.total - k.ids.length;
  if (l.rev < 0 || k.rev < 0 || k.first_id !== l.first_id || l.rev - k.rev !== added) return null;
  if (added < 0) return null;
  if (added > 0) {
    const after = k.ids.at(-1) ?? 0;
    const points = rows(
      db,
      `SELECT r.id, r.tokens_per_sec_mean FROM results r INDEXED BY idx_results_status_model
       WHERE ${LINE} AND r.id > :after ORDER BY r.id`,
      { ...lineParams(l), after },
    );
    for (const p of points) {
      k.ids.push(Number(p[0]));
      k.ys.push(typeof p[1] === "number" ? p[1] : null);
    }
  }
  k.rev = l.rev;
  return agrees(k, l) ? k : null;
}

/**
 * The points of each of `lines` (a model's, from `line_sums`), in their order: kept ones
 * extended by the results appended since, the others read whole. SQLite only.
 */
export function linePoints(db: StoreDb, model: string, lines: readonly LineState[]): LinePoints[] {
  let models = kept.get(db);
  if (!models) kept.set(db, models = new Map());
  const before = models.get(model);
  models.delete(model);
  const now = new Map<string, Kept>();
  const out = lines.map((l) => {
    const key = lineKey(l);
    const k = before?.get(key);
    const points = (k && extended(db, k, l)) ?? readLine(db, l);
    now.set(key, points);
    return points;
  });
  models.set(model, now);
  if (models.size > MODELS) models.delete(models.keys().next().value!);
  return out;
}
