/**
 * The sums of each line of one model's history, by SQLite's aggregates over every finished result:
 * a line is a variant measured through one backend with one set of parameters on one machine; x is a result's
 * position in its line (1-based, by result id), y its speed. Count, Σy, min, max, the first and
 * last ids and times are SQLite's own aggregates; Σx, Σx² and Σxy come from
 * `localbench_line_xy(y ORDER BY id)`, an aggregate function registered on the connection (a
 * running position costs nothing there; SQL's ROW_NUMBER() window took 3× as long at 13 k
 * points). Nothing per result reaches JavaScript objects: the dashboard stays small under load.
 * `localbench_line_pick(id, y, max ORDER BY id)` downsamples a line
 * ({@linkcode downsampleLine}). Both answers are kept per state of the store, so repeated
 * requests (the comparison's pages, a reload) read only their window of points.
 *
 * @module
 */
import { isPostgres, type StoreDb } from "./database.ts";
import { FINISHED } from "./status.ts";
import { storeVersion } from "./snapshot.ts";
import { downsampleLine } from "./downsample.ts";

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
  first_measured: number | null;
  last_measured: number | null;
  /** The newest result with a parallel round (`n_parallel` > 1 and its speed). */
  parallel_id: number | null;
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

interface Picked {
  ids: number[];
  ys: (number | null)[];
  max: number;
}

const registered = new WeakSet<StoreDb>();

/** Registers the two aggregate functions on the connection (once; the peer benchmark too). */
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
  aggregate(db, "localbench_line_pick", {
    start: (): Picked => ({ ids: [], ys: [], max: 0 }),
    step: (a: Picked, id: unknown, y: unknown, max: unknown) => {
      a.ids.push(Number(id));
      a.ys.push(typeof y === "number" ? y : null);
      a.max = Number(max);
      return a;
    },
    result: (a: Picked) => JSON.stringify(downsampleLine(a.ys, a.max).map((i) => a.ids[i])),
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
 * PostgreSQL has no aggregate functions in JavaScript: a line's positions come from
 * ROW_NUMBER() over the line, and Σx, Σx², Σxy are plain sums (the same figures).
 */
const PG_LINES = `SELECT model_id, backend, params_hash, machine_id, COUNT(*) AS total,
    COUNT(y) AS n,
    COALESCE(SUM(y), 0) AS sy, MIN(y) AS min_y, MAX(y) AS max_y,
    MIN(CASE WHEN y IS NOT NULL THEN finished_at END) AS first_run,
    MAX(CASE WHEN y IS NOT NULL THEN finished_at END) AS last_run,
    MIN(id) AS first_id, MIN(CASE WHEN y IS NOT NULL THEN id END) AS first_measured,
    MAX(CASE WHEN y IS NOT NULL THEN id END) AS last_measured,
    MAX(CASE WHEN n_parallel > 1 AND parallel_tokens_per_sec IS NOT NULL THEN id END)
      AS parallel_id,
    COALESCE(SUM(CASE WHEN y IS NOT NULL THEN x END), 0) AS sx,
    COALESCE(SUM(CASE WHEN y IS NOT NULL THEN x * x END), 0) AS sxx,
    COALESCE(SUM(x * y), 0) AS sxy
  FROM (SELECT r.id, r.model_id, r.backend, r.params_hash, r.machine_id, r.finished_at,
      r.n_parallel, r.parallel_tokens_per_sec, r.tokens_per_sec_mean AS y,
      ROW_NUMBER() OVER (PARTITION BY r.model_id, r.backend, r.params_hash, r.machine_id
        ORDER BY r.id) AS x
    FROM models m JOIN results r ON r.status IN ${FINISHED} AND r.model_id = m.id
    WHERE m.model_name = :name OR m.model_key = :name) q
  GROUP BY model_id, backend, params_hash, machine_id ORDER BY first_id`;

/** The lines of a model, read from the store. */
function readLines(db: StoreDb, name: string): LineSums[] {
  if (isPostgres(db)) return db.prepare(PG_LINES).all({ name }) as unknown as LineSums[];
  registerLineFunctions(db);
  const rows = db.prepare(
    `SELECT r.model_id, r.backend, r.params_hash, r.machine_id, COUNT(*) AS total,
       COUNT(r.tokens_per_sec_mean) AS n, TOTAL(r.tokens_per_sec_mean) AS sy,
       MIN(r.tokens_per_sec_mean) AS min_y, MAX(r.tokens_per_sec_mean) AS max_y,
       MIN(IIF(r.tokens_per_sec_mean IS NULL, NULL, r.finished_at)) AS first_run,
       MAX(IIF(r.tokens_per_sec_mean IS NULL, NULL, r.finished_at)) AS last_run,
       MIN(r.id) AS first_id, MIN(IIF(r.tokens_per_sec_mean IS NULL, NULL, r.id)) AS first_measured,
       MAX(IIF(r.tokens_per_sec_mean IS NULL, NULL, r.id)) AS last_measured,
       MAX(IIF(r.n_parallel > 1 AND r.parallel_tokens_per_sec IS NOT NULL, r.id, NULL))
         AS parallel_id,
       localbench_line_xy(r.tokens_per_sec_mean ORDER BY r.id) AS xy
     ${LINE_RESULTS} ORDER BY first_id`,
  ).all({ name }) as unknown as (LineSums & { xy: string })[];
  return rows.map(({ xy, ...line }) => {
    const [sx, sxx, sxy] = xy.split(",").map(Number);
    return { ...line, sx: sx!, sxx: sxx!, sxy: sxy! };
  });
}

const MEMO_ENTRIES = 32;
const memos = new WeakMap<StoreDb, Map<string, { version: string; value: unknown }>>();

/**
 * `read()`, done again only when the store changed (SQLite's `data_version` with this
 * connection's `total_changes()`, as the dashboard's snapshots); the last 32 keys are kept.
 */
function memoized<T>(db: StoreDb, key: string, read: () => T): T {
  const version = storeVersion(db);
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
  return memoized(db, `pick\u0000${max}\u0000${name}`, () => {
    if (isPostgres(db)) {
      const lines = db.prepare(
        `SELECT json_agg(r.id ORDER BY r.id) AS ids,
           json_agg(r.tokens_per_sec_mean ORDER BY r.id) AS ys ${LINE_RESULTS}`,
      ).all({ name }) as { ids: number[]; ys: (number | null)[] }[];
      return lines.flatMap((l) => downsampleLine(l.ys, max).map((i) => l.ids[i]!));
    }
    registerLineFunctions(db);
    const rows = db.prepare(
      `SELECT localbench_line_pick(r.id, r.tokens_per_sec_mean, :max ORDER BY r.id) AS ids
       ${LINE_RESULTS}`,
    ).all({ name, max }) as { ids: string }[];
    return rows.flatMap((r) => JSON.parse(r.ids) as number[]);
  });
}
