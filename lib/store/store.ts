/**
 * The results store: models, per-model results with aggregates, and one row per measured run.
 * Every write is its own transaction, so a process killed mid-benchmark leaves a consistent
 * database holding every completed run.
 *
 * @module
 */
import type { StoreDb } from "./database.ts";
import { openDatabase, transaction, withColumnRetry } from "./db.ts";
import { currentOwner, ownerAlive, sharedOwner } from "./owner.ts";
import { isPostgres } from "./database.ts";
import { FINISHED } from "./status.ts";
import { SnapshotCache } from "./snapshot.ts";
import { type MachineRecord, upsertMachine } from "./machines.ts";
import { splitGridResult } from "./split.ts";
import { refreshStaleLines } from "./line_sums.ts";
import {
  insertRow,
  type ModelRecord,
  plain,
  type ResultFinish,
  type ResultStart,
  type Row,
  type RunRecord,
  updateRow,
} from "./rows.ts";

/** A result row joined with its model. */
export type ResultRow = Row & {
  id: number;
  model_key: string;
  model_name: string;
  quantization: string | null;
  params_hash: string;
  backend: string;
  status: string;
  started_at: string;
};

const RESULT_COLUMNS = `r.*, m.model_key, m.model_name, m.quantization, m.architecture,
  m.params_size, m.size_bytes, m.max_context_length, m.format, m.has_vision, m.has_tools,
  mc.hostname AS machine_name`;
/** The machine of a result, by its primary key (null for an unknown machine). */
const MACHINE_JOIN = "LEFT JOIN machines mc ON mc.id = r.machine_id";
const RESULT_SELECT =
  `SELECT ${RESULT_COLUMNS} FROM results r JOIN models m ON m.id = r.model_id ${MACHINE_JOIN}`;

/** Options of {@linkcode ResultsStore.open}. */
export interface StoreOptions {
  /** Clock for time stamps. @default () => new Date() */
  now?: () => Date;
  /**
   * This process's owner token, written on the results it starts.
   * @default currentOwner(); on PostgreSQL (shared by machines) sharedOwner()
   */
  owner?: string;
  /** Whether the owner of a `running` result still runs. @default ownerAlive */
  ownerAlive?: (owner: string | null) => boolean;
}

/** The error stored on a result its process left `running` (killed, crashed, powered off). */
export const INTERRUPTED_ERROR =
  "Interrupted: the process ended before this result was finished (its completed runs are kept)";

/** The results database. */
export class ResultsStore {
  readonly db: StoreDb;
  /** Results found `running` at open whose process had ended, now marked interrupted. */
  readonly interrupted: number;
  /** JSON answers computed once per state of the database (dashboard reads). */
  readonly snapshots: SnapshotCache;
  #now: () => Date;
  #owner: string;

  private constructor(db: StoreDb, options: StoreOptions) {
    this.db = db;
    this.#now = options.now ?? (() => new Date());
    this.#owner = options.owner ?? (isPostgres(db) ? sharedOwner() : currentOwner());
    this.snapshots = new SnapshotCache(db);
    this.interrupted = this.#markInterrupted(options.ownerAlive ?? ownerAlive);
    // Lines another writer left stale (a delete, a sqlite3 shell) are computed again once here.
    const stale = this.db.prepare("SELECT 1 FROM line_sums WHERE stale = 1 LIMIT 1").get();
    if (stale) transaction(this.db, () => refreshStaleLines(this.db));
  }

  /**
   * Opens (and creates or migrates) the database at `path`; `:memory:` for tests. Results left
   * `running` by a process that has ended are marked failed with {@linkcode INTERRUPTED_ERROR}.
   */
  static open(path: string, options: StoreOptions = {}): ResultsStore {
    return new ResultsStore(openDatabase(path), options);
  }

  /** The owner token of this process's results (lib/store/owner.ts). */
  get owner(): string {
    return this.#owner;
  }

  /**
   * Marks the results `owner` left `running` as interrupted (their completed runs are kept), for a
   * process known to be gone that this machine cannot check (a fleet agent killed on another
   * machine); returns how many.
   */
  interruptOwner(owner: string): number {
    return this.#markInterrupted((o) => o !== owner);
  }

  #markInterrupted(alive: (owner: string | null) => boolean): number {
    const running = this.db.prepare("SELECT id, owner FROM results WHERE status = 'running'")
      .all() as { id: number; owner: string | null }[];
    const gone = running.filter((r) => !alive(r.owner));
    if (gone.length === 0) return 0;
    const update = this.db.prepare(
      "UPDATE results SET status = 'failed', error = ?, finished_at = ? WHERE id = ? AND status = 'running'",
    );
    transaction(this.db, () => {
      for (const r of gone) update.run(INTERRUPTED_ERROR, this.#stamp(), r.id);
    });
    return gone.length;
  }

  #stamp(): string {
    return this.#now().toISOString();
  }

  /** Inserts or refreshes a model variant; returns its id. */
  upsertModel(model: ModelRecord): number {
    const now = this.#stamp();
    const row: Row = {
      model_key: model.model_key,
      model_name: model.model_name,
      quantization: model.quantization,
      architecture: model.architecture ?? null,
      params_size: model.params_size ?? null,
      size_bytes: model.size_bytes ?? null,
      max_context_length: model.max_context_length ?? null,
      format: model.format ?? null,
      has_vision: model.has_vision ? 1 : 0,
      has_tools: model.has_tools ? 1 : 0,
      last_seen: now,
    };
    return withColumnRetry(this.db, () =>
      transaction(this.db, () => {
        const found = this.db.prepare("SELECT id FROM models WHERE model_key = ?")
          .get(model.model_key) as { id: number } | undefined;
        if (found) {
          updateRow(this.db, "models", found.id, row);
          return found.id;
        }
        return insertRow(this.db, "models", { ...row, first_seen: now });
      }));
  }

  /** Records the machine results run on (its newest description, last seen now). */
  recordMachine(machine: MachineRecord): void {
    transaction(this.db, () => upsertMachine(this.db, machine, this.#stamp()));
  }

  /** Starts a result (status `running`) and returns its id. */
  beginResult(start: ResultStart): number {
    const modelId = this.upsertModel(start.model);
    const row: Row = {
      model_id: modelId,
      params_hash: start.params_hash,
      backend: start.backend,
      status: "running",
      owner: this.#owner,
      started_at: this.#stamp(),
      params_json: JSON.stringify(start.params),
      prompt: start.prompt ?? null,
      context_length: start.context_length ?? null,
      num_runs: start.num_runs ?? null,
      n_parallel: start.n_parallel ?? null,
      machine_id: start.machine_id ?? null,
      ...(start.system_json ? { system_json: start.system_json } : {}),
    };
    return withColumnRetry(
      this.db,
      () => transaction(this.db, () => insertRow(this.db, "results", row)),
    );
  }

  /** Stores one measured run (one transaction). */
  addRun(resultId: number, run: RunRecord): number {
    const row: Row = { ...run, result_id: resultId, created_at: this.#stamp() };
    return withColumnRetry(
      this.db,
      () => transaction(this.db, () => insertRow(this.db, "runs", row)),
    );
  }

  /** Ends a result with its status, error and aggregates. */
  finishResult(resultId: number, finish: ResultFinish): void {
    const row: Row = {
      ...(finish.aggregates ?? {}),
      status: finish.status,
      error: finish.error ?? null,
      finished_at: this.#stamp(),
    };
    withColumnRetry(
      this.db,
      () =>
        transaction(this.db, () => {
          updateRow(this.db, "results", resultId, row);
          // A result finishing before a newer one of its line (runs in parallel) left it stale.
          refreshStaleLines(this.db);
        }),
    );
  }

  /**
   * The newest finished result of a model variant with these parameters on this machine (null:
   * the results of an unknown machine), or null.
   */
  findCached(modelKey: string, paramsHash: string, machineId: string | null): ResultRow | null {
    // The identity's newest finished result is kept in identity_latest: one seek.
    const row = this.db.prepare(
      `SELECT ${RESULT_COLUMNS} FROM models m
       CROSS JOIN identity_latest l ON l.model_id = m.id AND l.params_hash = ?
         AND l.machine_key = COALESCE(?, '')
       JOIN results r ON r.id = l.result_id ${MACHINE_JOIN}
       WHERE m.model_key = ?`,
    ).get(paramsHash, machineId, modelKey);
    return row ? plain<ResultRow>(row) : null;
  }

  /**
   * The cached result that spares measuring a variant again: the newest finished result with
   * these parameters on this machine (another machine's result is another identity), and only
   * when it is not partial (no run or request of it failed, a decode speed was kept) and it has
   * at least `runs` measured runs (asking for 5 runs after 4 measures again). Null otherwise.
   */
  cacheHit(
    modelKey: string,
    paramsHash: string,
    runs: number,
    machineId: string | null,
  ): ResultRow | null {
    const row = this.findCached(modelKey, paramsHash, machineId);
    if (row === null || row.status === "partial" || Number(row.runs_failed ?? 0) > 0) return null;
    return Number(row.runs_ok ?? row.num_runs ?? 0) >= runs ? row : null;
  }

  /**
   * Splits a finished grid result into one result per cell (split.ts), in one transaction;
   * returns the ids of its results, its own first.
   */
  splitGrid(resultId: number): number[] {
    return transaction(this.db, () => {
      const ids = splitGridResult(this.db, resultId);
      refreshStaleLines(this.db); // the grid's result left its line for its first cell's
      return ids;
    });
  }

  /** The finished results among `ids`, in that order. */
  finishedResults(ids: readonly number[]): ResultRow[] {
    const one = this.db.prepare(`${RESULT_SELECT} WHERE r.id = ? AND r.status IN ${FINISHED}`);
    return ids.map((id) => one.get(id)).filter((r) => r !== undefined)
      .map((r) => plain<ResultRow>(r));
  }

  /** The newest finished result of every identity (variant × parameters × machine), newest first. */
  latestPerIdentity(): ResultRow[] {
    return this.db.prepare(
      // CROSS JOIN keeps identity_latest the outer loop: a planner may otherwise walk every
      // result in finished_at order to save the sort of a few rows.
      `SELECT ${RESULT_COLUMNS} FROM identity_latest l CROSS JOIN results r ON r.id = l.result_id
       JOIN models m ON m.id = r.model_id ${MACHINE_JOIN} ORDER BY r.finished_at DESC, r.id DESC`,
    ).all().map((r) => plain<ResultRow>(r));
  }

  /** Every result (history included), oldest first. */
  allResults(): ResultRow[] {
    return this.db.prepare(`${RESULT_SELECT} ORDER BY r.id`).all().map((r) => plain<ResultRow>(r));
  }

  /** The runs of a result, in run order. */
  runsOf(resultId: number): Row[] {
    return this.db.prepare("SELECT * FROM runs WHERE result_id = ? ORDER BY run_index, id")
      .all(resultId).map((r) => plain<Row>(r));
  }

  /** Stores the cells of a controlled workload's grid (one transaction). */
  addGridCells(resultId: number, cells: Row[]): void {
    this.#addRows("grid_cells", resultId, cells);
  }

  /** The grid cells of a result, in the order stored. */
  gridOf(resultId: number): Row[] {
    return this.db.prepare("SELECT * FROM grid_cells WHERE result_id = ? ORDER BY id")
      .all(resultId).map((r) => plain<Row>(r));
  }

  /** Stores the levels of a load curve (one transaction). */
  addLoadLevels(resultId: number, levels: Row[]): void {
    this.#addRows("load_levels", resultId, levels);
  }

  /** The load curve of a result: concurrency levels first, then rates, each ascending. */
  loadLevelsOf(resultId: number): Row[] {
    return this.db.prepare(
      "SELECT * FROM load_levels WHERE result_id = ? ORDER BY mode, level, id",
    ).all(resultId).map((r) => plain<Row>(r));
  }

  #addRows(table: string, resultId: number, rows: Row[]): void {
    if (rows.length === 0) return;
    transaction(this.db, () => {
      for (const row of rows) insertRow(this.db, table, { ...row, result_id: resultId });
    });
  }

  /** Closes the database. */
  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
