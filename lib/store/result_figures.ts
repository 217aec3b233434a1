/**
 * The figures of finished results the results table shows (results_table.ts), kept per store
 * connection by result id: a finished result's figures do not change once it finished, so a
 * request after a write reads only the ids of `identity_latest` (and the variants and machines)
 * fresh and fetches the figures of the results it has not seen, instead of reading and
 * formatting every identity's two results again (perf/dashboard_api_postgres.ts).
 *
 * The rare change that does edit or remove a finished result bumps `result_edits` (schema 13,
 * result_edits.ts, which lists every writer); the count is read in the same statement as the
 * ids, before any figures are fetched, and a new count empties the cache. A writer that commits
 * between the two reads is seen by the next request (its count is newer than the cached one).
 *
 * @module
 */
import { isPostgres, type StoreDb } from "./database.ts";
import { workloadText } from "./identity.ts";

/** The columns of a result the table sends as they are read (in this order). */
export const RESULT_SENT = [
  "backend",
  "params_hash",
  "finished_at",
  "runs_ok",
  "runs_failed",
  "n_parallel",
  "tokens_per_sec_mean",
  "ttft_ms_mean",
  "vram_mb",
  "tokens_per_sec_per_gb",
  "parallel_tokens_per_sec",
] as const;

/** The text columns of {@linkcode RESULT_SENT}; every other one holds numbers. */
const TEXT = new Set(["backend", "params_hash", "finished_at"]);

/** What the table reads of one finished result. */
export interface ResultFigures {
  /** {@linkcode RESULT_SENT}'s values, a number that is not finite made null (as JSON has it). */
  sent: unknown[];
  /** The decode speed as stored (NaN and ±Infinity kept: the order and Δ see them). */
  speed: number | null;
  /** Welch's test's inputs: the speed made finite, its spread and number of runs. */
  mean: number | null;
  std: number | null;
  n: number | null;
  /** The workload in words (identity.ts). */
  workload: string | null;
  machineId: string | null;
  /** The change and Welch's test against a previous result, by its id (once per pair). */
  compared?: { prevId: number; delta: number | null; significant: 1 | 0 | null };
}

/** The fetched columns: the sent ones, then what the computed ones need. */
const FETCHED: [string, string][] = [
  ["id", "r.id"],
  ...RESULT_SENT.map((c): [string, string] => [c, `r.${c}`]),
  ["machine_id", "r.machine_id"],
  // Only where a workload is (the parameters hold the prompt: kilobytes a row, read for nothing).
  ["params_json", `CASE WHEN r.params_json LIKE '%"workload"%' THEN r.params_json END`],
  ["speed_std", "r.tokens_per_sec_std"],
  ["speed_n", "COALESCE(r.tokens_per_sec_n, r.runs_ok)"],
];

/** A number as stored: PostgreSQL's JSON writes NaN and ±Infinity as strings. */
function stored(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (v === "NaN") return NaN;
  if (v === "Infinity") return Infinity;
  if (v === "-Infinity") return -Infinity;
  return null;
}

const finite = (v: number | null): number | null => v !== null && Number.isFinite(v) ? v : null;

const INDEX = new Map(FETCHED.map(([name], i) => [name, i]));

function figuresOf(values: unknown[]): ResultFigures {
  const at = (name: string) => values[INDEX.get(name)!];
  const sent = RESULT_SENT.map((c) => TEXT.has(c) ? at(c) ?? null : finite(stored(at(c))));
  const speed = stored(at("tokens_per_sec_mean"));
  return {
    sent,
    speed,
    mean: finite(speed),
    std: finite(stored(at("speed_std"))),
    n: finite(stored(at("speed_n"))),
    workload: workloadText(at("params_json")),
    machineId: (at("machine_id") as string | null) ?? null,
  };
}

/** The rows of `json` (an array of arrays, or null for none). */
const arrays = (json: unknown): unknown[][] =>
  typeof json === "string" ? JSON.parse(json) as unknown[][] : [];

/** What every request reads fresh: the identities, the variants and the machines. */
export interface TableKeys {
  /** [model_id, result_id, prev_id, ok_results] per identity. */
  identities: [number, number, number | null, number][];
  /** [id, model_key, model_name, quantization, architecture] per variant. */
  models: [number, string, string, string | null, string | null][];
  /** [id, hostname] per machine. */
  machines: [string, string | null][];
}

/** The figures of one store connection's results, by id. */
export class ResultFiguresCache {
  #edits: unknown = undefined;
  #figures = new Map<number, ResultFigures>();

  /** How many results' figures are kept. */
  get size(): number {
    return this.#figures.size;
  }

  /**
   * Reads the keys in one statement (one snapshot), with the edit count: the cache is emptied
   * when the count is not the one its figures were read under.
   */
  keys(db: StoreDb): TableKeys {
    const pg = isPostgres(db);
    const agg = (cols: string, from: string) =>
      pg
        ? `(SELECT CAST(json_agg(json_build_array(${cols})) AS TEXT) FROM ${from})`
        : `(SELECT json_group_array(json_array(${cols})) FROM ${from})`;
    const row = db.prepare(
      `SELECT (SELECT n FROM result_edits WHERE id = 1) AS edits,
        ${agg("model_id, result_id, prev_id, ok_results", "identity_latest")} AS identities,
        ${agg("id, model_key, model_name, quantization, architecture", "models")} AS models,
        ${agg("id, hostname", "machines")} AS machines`,
    ).get()!;
    const edits = String(row.edits);
    if (edits !== this.#edits) {
      this.#figures.clear();
      this.#edits = edits;
    }
    return {
      identities: arrays(row.identities) as TableKeys["identities"],
      models: arrays(row.models) as TableKeys["models"],
      machines: arrays(row.machines) as TableKeys["machines"],
    };
  }

  /**
   * The figures of `ids` (finished results `identity_latest` names): the ones not kept are
   * fetched in one statement (none when every one is kept); the kept ones no longer named are
   * dropped. A result deleted meanwhile is missing from the answer.
   */
  figures(db: StoreDb, ids: ReadonlySet<number>): Map<number, ResultFigures> {
    const missing = [...ids].filter((id) => !this.#figures.has(id));
    if (missing.length > 0) {
      for (const values of fetchFigures(db, missing)) {
        this.#figures.set(Number(values[0]), figuresOf(values));
      }
    }
    if (this.#figures.size > ids.size) {
      for (const id of this.#figures.keys()) if (!ids.has(id)) this.#figures.delete(id);
    }
    return this.#figures;
  }
}

/** The {@linkcode FETCHED} values of the results `ids`, seeking each by its primary key. */
function fetchFigures(db: StoreDb, ids: number[]): unknown[][] {
  const list = JSON.stringify(ids);
  if (isPostgres(db)) {
    // One JSON text for the bridge (results_table.ts); the ids as an array: primary-key seeks.
    const row = db.prepare(
      `SELECT CAST(json_agg(json_build_array(${
        FETCHED.map(([, sql]) => sql).join(", ")
      })) AS TEXT) AS body FROM results r
       WHERE r.id = ANY(ARRAY(SELECT CAST(value AS BIGINT)
         FROM json_array_elements_text(CAST(? AS json))))`,
    ).get(list);
    return arrays(row?.body);
  }
  return db.prepare(
    `SELECT ${FETCHED.map(([name, sql]) => `${sql} AS ${name}`).join(", ")}
     FROM results r WHERE r.id IN (SELECT value FROM json_each(?))`,
  ).all(list).map((r) => FETCHED.map(([name]) => r[name] ?? null));
}

const caches = new WeakMap<StoreDb, ResultFiguresCache>();

/** The cache of `db`'s connection (one per connection, for the life of the process). */
export function figuresCacheOf(db: StoreDb): ResultFiguresCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, cache = new ResultFiguresCache());
  return cache;
}
