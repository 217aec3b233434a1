/**
 * The sums of each line of one model's history: a line is a variant measured through one backend
 * with one set of parameters on one machine; x is a result's position in its line (1-based, by
 * result id), y its speed. They are read from `line_sums` (line_sums.ts), which triggers keep
 * current in the writing transaction: a request after a write costs a read of the model's few
 * lines, not a pass over its points. A line marked stale there (a delete, a result finishing out
 * of order, until a writer refreshes it) is computed here from its results: count, Σy, min, max,
 * the first and last ids and times are SQLite's own aggregates; Σx, Σx² and Σxy come from
 * `localbench_line_xy(y ORDER BY id)`, an aggregate function registered on the connection (a
 * running position costs nothing there; SQL's ROW_NUMBER() window took 3× as long at 13 k
 * points). The downsampled points ({@linkcode downsampleLine}) come from each line's points kept
 * in memory and extended by the results appended since (line_points.ts; on PostgreSQL read whole).
 * Both answers are kept per state of the store, so repeated requests (the comparison's pages, a
 * reload) read only their window of points.
 *
 * @module
 */
import { isPostgres, type StoreDb } from "./database.ts";
import { FINISHED } from "./status.ts";
import { storeVersion } from "./snapshot.ts";
import { downsampleLine } from "./downsample.ts";
import { linesFromScratchSql } from "./line_sums.ts";
import { linePoints } from "./line_points.ts";

/** The sums and extremes of one line. */
export interface LineSums {
  model_id: number;
  backend: string;
  params_hash: string;
  /** The machine of the line (null: an unknown machine). */
  machine_id: string | null;
  /** Finished results. */
  total: number;
  /** Results with a speed. */
  n: number;
  sx: number;
  sxx: number;
  sy: number;
  sxy: number;
  min_y: number | null;
  max_y: number | null;
  /** The earliest and latest `finished_at` of the results with a speed. */
  first_run: string | null;
  last_run: string | null;
  first_id: number;
  /** The newest finished result. */
  last_id: number;
  first_measured: number | null;
  last_measured: number | null;
  /** The newest result with a parallel round (`n_parallel` > 1 and its speed). */
  parallel_id: number | null;
  /** Changes to the line in `line_sums`; -1 when computed here from its results (stale). */
  rev: number;
}

type Aggregate = (db: StoreDb, name: string, options: {
  start: () => unknown;
  // Its arity is the SQL function's number of arguments (the accumulator and one per argument).
  step: (acc: never, ...args: never[]) => unknown;
  result: (acc: never) => string;
}) => void;

interface XY {
  x: number;
  sx: number;
  sxx: number;
  sxy: number;
}

const registered = new WeakSet<StoreDb>();

/** Registers the aggregate function on the connection (once; the peer benchmark too). */
export function registerLineFunctions(db: StoreDb): void {
  if (registered.has(db) || isPostgres(db)) return;
  const aggregate: Aggregate = (d, name, options) =>
    (d as unknown as { aggregate: (n: string, o: unknown) => void }).aggregate(name, options);
  aggregate(db, "localbench_line_xy", {
    start: (): XY => ({ x: 0, sx: 0, sxx: 0, sxy: 0 }),
    step: (a: XY, y: unknown) => {
      const x = ++a.x;
      if (typeof y === "number") a.sx += x, a.sxx += x * x, a.sxy += x * y;
      return a;
    },
    result: (a: XY) => `${a.sx},${a.sxx},${a.sxy}`,
  });
  registered.add(db);
}

// The variants first (a few rows, CROSS JOIN keeps them the outer loop), then their results
// through the index: never a walk over the whole history.
const LINE_RESULTS = `FROM models m CROSS JOIN results r INDEXED BY idx_results_status_model
    ON r.status IN ${FINISHED} AND r.model_id = m.id
  WHERE m.model_name = :name OR m.model_key = :name
  GROUP BY r.model_id, r.backend, r.params_hash, r.machine_id`;

/**
 * A stale line on PostgreSQL (no aggregate functions in JavaScript there): the positions by
 * ROW_NUMBER() over the line, Σx, Σx², Σxy plain sums (line_sums.ts's statement, the same figures).
 */
function pgLineFromScratch(db: StoreDb, line: LineSums): LineSums {
  const row = db.prepare(linesFromScratchSql(
    "model_id = :model_id AND backend = :backend AND params_hash = :hash " +
      "AND COALESCE(machine_id, '') = :machine",
  )).get({
    model_id: line.model_id,
    backend: line.backend,
    hash: line.params_hash,
    machine: line.machine_id ?? "",
  });
  if (!row) return { ...line, total: 0, rev: -1 };
  const { machine_key: _key, stale: _stale, ...sums } = row;
  return { ...sums, machine_id: line.machine_id, rev: -1 } as unknown as LineSums;
}

/** One line's sums from its results (a stale row of line_sums). */
function lineFromScratch(db: StoreDb, line: LineSums): LineSums {
  if (isPostgres(db)) return pgLineFromScratch(db, line);
  registerLineFunctions(db);
  const row = db.prepare(
    `SELECT r.model_id, r.backend, r.params_hash, r.machine_id, COUNT(*) AS total,
       COUNT(r.tokens_per_sec_mean) AS n, TOTAL(r.tokens_per_sec_mean) AS sy,
       MIN(r.tokens_per_sec_mean) AS min_y, MAX(r.tokens_per_sec_mean) AS max_y,
       MIN(IIF(r.tokens_per_sec_mean IS NULL, NULL, r.finished_at)) AS first_run,
       MAX(IIF(r.tokens_per_sec_mean IS NULL, NULL, r.finished_at)) AS last_run,
       MIN(r.id) AS first_id, MAX(r.id) AS last_id,
       MIN(IIF(r.tokens_per_sec_mean IS NULL, NULL, r.id)) AS first_measured,
       MAX(IIF(r.tokens_per_sec_mean IS NULL, NULL, r.id)) AS last_measured,
       MAX(IIF(r.n_parallel > 1 AND r.parallel_tokens_per_sec IS NOT NULL, r.id, NULL))
         AS parallel_id,
       localbench_line_xy(r.tokens_per_sec_mean ORDER BY r.id) AS xy
     FROM results r WHERE r.status IN ${FINISHED} AND r.model_id = :model_id
       AND r.params_hash = :hash AND r.backend = :backend AND r.machine_id IS :machine
     GROUP BY r.model_id, r.backend, r.params_hash, r.machine_id`,
  ).get({
    model_id: line.model_id,
    hash: line.params_hash,
    backend: line.backend,
    machine: line.machine_id,
  }) as
    | (LineSums & { xy: string })
    | undefined;
  if (!row) return { ...line, total: 0, rev: -1 };
  const { xy, ...sums } = row;
  const [sx, sxx, sxy] = xy.split(",").map(Number);
  return { ...sums, sx: sx!, sxx: sxx!, sxy: sxy!, rev: -1 };
}

/**
 * The lines of a model: the rows of `line_sums` (kept by triggers, line_sums.ts), a stale one
 * computed from its results until a writer refreshes it.
 */
function readLines(db: StoreDb, name: string): LineSums[] {
  const rows = db.prepare(
    `SELECT s.model_id, s.backend, s.params_hash, NULLIF(s.machine_key, '') AS machine_id,
       s.total, s.n, s.sx, s.sxx, s.sy, s.sxy, s.min_y, s.max_y, s.first_run, s.last_run,
       s.first_id, s.last_id, s.first_measured, s.last_measured, s.parallel_id, s.stale, s.rev
     FROM models m CROSS JOIN line_sums s ON s.model_id = m.id
     WHERE m.model_name = :name OR m.model_key = :name`,
  ).all({ name }) as unknown as (LineSums & { stale: number })[];
  return rows
    .map(({ stale, ...line }) => stale ? lineFromScratch(db, line) : line)
    .filter((line) => line.total > 0)
    .sort((a, b) => a.first_id - b.first_id);
}

const MEMO_ENTRIES = 32;
const memos = new WeakMap<StoreDb, Map<string, { version: string; value: unknown }>>();

/**
 * `read()`, done again only when `version` changed: by default the store's (SQLite's
 * `data_version` with this connection's `total_changes()`, as the dashboard's snapshots); the
 * last 32 keys are kept.
 */
function memoized<T>(db: StoreDb, key: string, read: () => T, version = storeVersion(db)): T {
  let memo = memos.get(db);
  if (!memo) memos.set(db, memo = new Map());
  const found = memo.get(key);
  memo.delete(key);
  const value = found?.version === version ? found.value as T : read();
  memo.set(key, { version, value });
  if (memo.size > MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
  return value;
}

/** The lines of a model (`model_name` or a variant's `model_key`), by their first result. */
export function lineSums(db: StoreDb, name: string): LineSums[] {
  return memoized(db, `lines\u0000${name}`, () => readLines(db, name));
}

/** The ids of every line's points, each line downsampled to at most `max` points. */
export function pickedIds(db: StoreDb, name: string, max: number): number[] {
  // Kept while the model's lines are (a write elsewhere, another model's result, changes none).
  const lines = lineSums(db, name);
  const state = lines.some((l) => l.rev < 0) ? `store ${storeVersion(db)}` : lines
    .map((l) =>
      [l.model_id, l.backend, l.params_hash, l.machine_id ?? "", l.rev, l.total].join("\u0000")
    )
    .join("\u0001");
  return memoized(db, `pick\u0000${max}\u0000${name}`, () => {
    if (isPostgres(db)) {
      const lines = db.prepare(
        `SELECT json_agg(r.id ORDER BY r.id) AS ids,
           json_agg(r.tokens_per_sec_mean ORDER BY r.id) AS ys ${LINE_RESULTS}`,
      ).all({ name }) as { ids: number[]; ys: (number | null)[] }[];
      return lines.flatMap((l) => downsampleLine(l.ys, max).map((i) => l.ids[i]!));
    }
    // Each line's points are kept in memory and extended by the results appended since.
    return linePoints(db, name, lines)
      .flatMap((l) => downsampleLine(l.ys, max).map((i) => l.ids[i]!));
  }, state);
}
