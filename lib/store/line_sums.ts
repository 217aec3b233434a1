/**
 * `line_sums`: the sums of every line of the history, kept current by triggers inside the
 * transaction that writes a result, so the comparison's figures after a write cost a read of a
 * few rows instead of a pass over every point. A line is a variant measured through one backend
 * with one set of parameters on one machine (as the history's lines, `history_sums.ts`); x is a
 * finished result's position in its line (1-based, by id), y its decode speed
 * (`tokens_per_sec_mean`). The machine is keyed as `identity_latest` keys it (`machine_key`:
 * `results.machine_id`, or '' for an unknown machine, since a key column cannot be null).
 *
 * - A finished result arriving after the newest one of its line (how a benchmark writes:
 *   `running`, then finished) adds its x and y to the sums: O(1).
 * - Anything else (a result finishing before a newer one of its line, leaving the line, deleted,
 *   its speed or time changed) keeps `total` exact and marks the line `stale`: the positions of
 *   later results moved, so Σx, Σx², Σxy and the extremes are computed again from the history,
 *   by {@linkcode refreshStaleLines} (the store calls it in its writing transactions and at
 *   open) or, until then, by the reader for that line alone (`history_sums.ts`).
 * - A line goes with its last finished result.
 * - `rev` counts the changes to a line: what is derived from its points (the downsampled chart)
 *   is kept while the model's lines keep theirs.
 *
 * Portability: the table, the from-scratch statement ({@linkcode linesFromScratchSql}) and the
 * refresh are plain SQL (window functions, CASE, COALESCE) that PostgreSQL runs as they are;
 * only {@linkcode LINE_SUMS_TRIGGERS_SQL} is SQLite's trigger dialect. Its PostgreSQL twin, the
 * same cases in PL/pgSQL, is pg/line_sums.ts.
 *
 * @module
 */
import type { StoreDb } from "./database.ts";
import { FINISHED } from "./status.ts";

/** The columns of `line_sums`, as `history_sums.ts` reads them. */
export const LINE_SUMS_TABLE_SQL = `
  CREATE TABLE line_sums (
    model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    backend TEXT NOT NULL,
    params_hash TEXT NOT NULL,
    machine_key TEXT NOT NULL,
    total INTEGER NOT NULL,
    n INTEGER NOT NULL,
    sx REAL NOT NULL,
    sxx REAL NOT NULL,
    sy REAL NOT NULL,
    sxy REAL NOT NULL,
    min_y REAL,
    max_y REAL,
    first_run TEXT,
    last_run TEXT,
    first_id INTEGER NOT NULL,
    last_id INTEGER NOT NULL,
    first_measured INTEGER,
    last_measured INTEGER,
    parallel_id INTEGER,
    stale INTEGER NOT NULL DEFAULT 0,
    -- Changes to the line since its row was made: the downsampled points are kept while it holds.
    rev INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (model_id, backend, params_hash, machine_key)
  );`;

const COLUMNS =
  `model_id, backend, params_hash, machine_key, total, n, sx, sxx, sy, sxy, min_y, max_y,
  first_run, last_run, first_id, last_id, first_measured, last_measured, parallel_id, stale, rev`;

/**
 * The rows of `line_sums` computed from the history (`where` narrows the finished results, e.g.
 * to one line): the positions by `ROW_NUMBER()`, the rest plain aggregates.
 */
export function linesFromScratchSql(where = "1 = 1"): string {
  const y = "tokens_per_sec_mean";
  const measured = (v: string) => `CASE WHEN ${y} IS NULL THEN NULL ELSE ${v} END`;
  return `
    SELECT model_id, backend, params_hash, machine_key, COUNT(*) AS total, COUNT(${y}) AS n,
      COALESCE(SUM(${measured("x")}), 0) AS sx, COALESCE(SUM(${measured("x * x")}), 0) AS sxx,
      COALESCE(SUM(${y}), 0) AS sy, COALESCE(SUM(${measured(`x * ${y}`)}), 0) AS sxy,
      MIN(${y}) AS min_y, MAX(${y}) AS max_y,
      MIN(${measured("finished_at")}) AS first_run, MAX(${measured("finished_at")}) AS last_run,
      MIN(id) AS first_id, MAX(id) AS last_id,
      MIN(${measured("id")}) AS first_measured, MAX(${measured("id")}) AS last_measured,
      MAX(CASE WHEN n_parallel > 1 AND parallel_tokens_per_sec IS NOT NULL THEN id END)
        AS parallel_id, 0 AS stale, 0 AS rev
    FROM (SELECT id, model_id, backend, params_hash, COALESCE(machine_id, '') AS machine_key,
            finished_at, ${y}, n_parallel, parallel_tokens_per_sec,
            ROW_NUMBER() OVER (PARTITION BY model_id, backend, params_hash,
              COALESCE(machine_id, '') ORDER BY id) AS x
          FROM results WHERE status IN ${FINISHED} AND (${where})) AS finished
    GROUP BY model_id, backend, params_hash, machine_key`;
}

/** Fills `line_sums` from the history (the migration that makes it). */
export const FILL_LINE_SUMS_SQL = `INSERT INTO line_sums (${COLUMNS}) ${linesFromScratchSql()};`;

const KEY = (row: "NEW" | "OLD") =>
  `model_id = ${row}.model_id AND backend = ${row}.backend AND params_hash = ${row}.params_hash
    AND machine_key = COALESCE(${row}.machine_id, '')`;

const Y = "NEW.tokens_per_sec_mean";
const X = "(total + 1)";
/** A finished result after the newest of its line: its x and y added (SET reads the old row). */
const APPEND = `
  UPDATE line_sums SET total = total + 1, rev = rev + 1,
    n = n + CASE WHEN ${Y} IS NULL THEN 0 ELSE 1 END,
    sx = sx + CASE WHEN ${Y} IS NULL THEN 0 ELSE ${X} END,
    sxx = sxx + CASE WHEN ${Y} IS NULL THEN 0 ELSE ${X} * ${X} END,
    sy = sy + COALESCE(${Y}, 0),
    sxy = sxy + COALESCE(${X} * ${Y}, 0),
    min_y = CASE WHEN ${Y} IS NOT NULL AND (min_y IS NULL OR ${Y} < min_y) THEN ${Y} ELSE min_y END,
    max_y = CASE WHEN ${Y} IS NOT NULL AND (max_y IS NULL OR ${Y} > max_y) THEN ${Y} ELSE max_y END,
    first_run = CASE WHEN ${Y} IS NOT NULL AND NEW.finished_at IS NOT NULL
      AND (first_run IS NULL OR NEW.finished_at < first_run) THEN NEW.finished_at ELSE first_run END,
    last_run = CASE WHEN ${Y} IS NOT NULL AND NEW.finished_at IS NOT NULL
      AND (last_run IS NULL OR NEW.finished_at > last_run) THEN NEW.finished_at ELSE last_run END,
    last_id = NEW.id,
    first_measured = CASE WHEN ${Y} IS NOT NULL AND first_measured IS NULL THEN NEW.id
      ELSE first_measured END,
    last_measured = CASE WHEN ${Y} IS NOT NULL THEN NEW.id ELSE last_measured END,
    parallel_id = CASE WHEN NEW.n_parallel > 1 AND NEW.parallel_tokens_per_sec IS NOT NULL
      THEN NEW.id ELSE parallel_id END
  WHERE ${KEY("NEW")} AND stale = 0 AND last_id < NEW.id;`;

/** A finished result arriving at its line: appended, else the line marked stale, else a new line. */
const ENTER = `${APPEND}
  UPDATE line_sums SET total = total + 1, stale = 1, rev = rev + 1,
      last_id = CASE WHEN NEW.id > last_id THEN NEW.id ELSE last_id END
    WHERE ${KEY("NEW")} AND (stale = 1 OR last_id > NEW.id);
  INSERT INTO line_sums (${COLUMNS}) VALUES (NEW.model_id, NEW.backend, NEW.params_hash,
    COALESCE(NEW.machine_id, ''), 1,
    CASE WHEN ${Y} IS NULL THEN 0 ELSE 1 END, CASE WHEN ${Y} IS NULL THEN 0 ELSE 1 END,
    CASE WHEN ${Y} IS NULL THEN 0 ELSE 1 END, COALESCE(${Y}, 0), COALESCE(${Y}, 0), ${Y}, ${Y},
    CASE WHEN ${Y} IS NULL THEN NULL ELSE NEW.finished_at END,
    CASE WHEN ${Y} IS NULL THEN NULL ELSE NEW.finished_at END, NEW.id, NEW.id,
    CASE WHEN ${Y} IS NULL THEN NULL ELSE NEW.id END,
    CASE WHEN ${Y} IS NULL THEN NULL ELSE NEW.id END,
    CASE WHEN NEW.n_parallel > 1 AND NEW.parallel_tokens_per_sec IS NOT NULL THEN NEW.id END, 0, 0)
  ON CONFLICT (model_id, backend, params_hash, machine_key) DO NOTHING;`;

/** A finished result leaving its line: the count goes down, the line goes with the last one. */
const LEAVE = `
  DELETE FROM line_sums WHERE ${KEY("OLD")} AND total <= 1;
  UPDATE line_sums SET total = total - 1, stale = 1, rev = rev + 1 WHERE ${KEY("OLD")};`;

const MOVED = `(OLD.model_id <> NEW.model_id OR OLD.backend <> NEW.backend
  OR OLD.params_hash <> NEW.params_hash OR OLD.machine_id IS NOT NEW.machine_id)`;
const CHANGED = `(OLD.tokens_per_sec_mean IS NOT NEW.tokens_per_sec_mean
  OR OLD.finished_at IS NOT NEW.finished_at OR OLD.n_parallel IS NOT NEW.n_parallel
  OR OLD.parallel_tokens_per_sec IS NOT NEW.parallel_tokens_per_sec OR OLD.id <> NEW.id)`;

/**
 * The triggers that keep `line_sums` current. SQLite dialect; PostgreSQL's twin is
 * pg/line_sums.ts `PG_LINE_SUMS_TRIGGERS_SQL` (change both together).
 */
export const LINE_SUMS_TRIGGERS_SQL = `
  CREATE TRIGGER line_sums_insert AFTER INSERT ON results
    WHEN NEW.status IN ${FINISHED} BEGIN ${ENTER} END;
  CREATE TRIGGER line_sums_enter AFTER UPDATE OF status, model_id, backend, params_hash, machine_id
    ON results
    WHEN NEW.status IN ${FINISHED} AND (OLD.status NOT IN ${FINISHED} OR ${MOVED})
    BEGIN ${ENTER} END;
  CREATE TRIGGER line_sums_leave AFTER UPDATE OF status, model_id, backend, params_hash, machine_id
    ON results
    WHEN OLD.status IN ${FINISHED} AND (NEW.status NOT IN ${FINISHED} OR ${MOVED})
    BEGIN ${LEAVE} END;
  CREATE TRIGGER line_sums_change AFTER UPDATE OF id, tokens_per_sec_mean, finished_at,
      n_parallel, parallel_tokens_per_sec ON results
    WHEN OLD.status IN ${FINISHED} AND NEW.status IN ${FINISHED} AND NOT ${MOVED} AND ${CHANGED}
    BEGIN UPDATE line_sums SET stale = 1, rev = rev + 1 WHERE ${KEY("NEW")}; END;
  CREATE TRIGGER line_sums_delete AFTER DELETE ON results
    WHEN OLD.status IN ${FINISHED} BEGIN ${LEAVE} END;
`;

/** The triggers of {@linkcode LINE_SUMS_TRIGGERS_SQL}. */
export const LINE_SUMS_TRIGGERS = [
  "line_sums_insert",
  "line_sums_enter",
  "line_sums_leave",
  "line_sums_change",
  "line_sums_delete",
];

/** The table, filled from the history, and its triggers (schema 11, after the machines' 10). */
export const LINE_SUMS_SQL = `${LINE_SUMS_TABLE_SQL}
  ${FILL_LINE_SUMS_SQL}
  ${LINE_SUMS_TRIGGERS_SQL}`;

/** The key of a stale row of `line_sums` and its changes so far. */
interface StaleLine {
  model_id: number;
  backend: string;
  params_hash: string;
  machine_key: string;
  rev: number;
}

/**
 * Computes the stale lines again from the history (each line alone, through the index); returns
 * how many. Run inside the writing transaction.
 */
export function refreshStaleLines(db: StoreDb): number {
  const stale = db.prepare(
    "SELECT model_id, backend, params_hash, machine_key, rev FROM line_sums WHERE stale = 1",
  ).all() as unknown as StaleLine[];
  if (stale.length === 0) return 0;
  const line = "model_id = :model_id AND backend = :backend AND params_hash = :hash";
  const drop = db.prepare(`DELETE FROM line_sums WHERE ${line} AND machine_key = :machine`);
  const fill = db.prepare(
    `INSERT INTO line_sums (${COLUMNS}) ${
      linesFromScratchSql(`${line} AND COALESCE(machine_id, '') = :machine`)
    }`,
  );
  const revise = db.prepare(
    `UPDATE line_sums SET rev = :rev WHERE ${line} AND machine_key = :machine`,
  );
  for (const l of stale) {
    const key = {
      model_id: l.model_id,
      backend: l.backend,
      hash: l.params_hash,
      machine: l.machine_key,
    };
    drop.run(key);
    fill.run(key);
    revise.run({ ...key, rev: l.rev + 1 });
  }
  return stale.length;
}
