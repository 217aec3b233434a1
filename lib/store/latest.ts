/**
 * The derived tables the dashboard reads: the newest finished result of every identity (model
 * variant × parameters hash × machine: backend, workload and load parameters, see identity.ts) and
 * the stored run total, kept current by triggers inside the transaction that writes a result or
 * a run, so every writer (store, seeds, a sqlite3 shell) keeps them right. Read in time
 * proportional to the identities, whatever the history and whatever the SQLite version's planner
 * does with a derived `latest` (3.53 flattens it and scans it again per row).
 *
 * Schemas 4 to 8 kept `model_latest`, one row per variant: it merged a variant's workloads
 * (a default-prompt run and a grid run were one line). Schema 9 replaces it with
 * `identity_latest`, and schema 10 keys that by the machine too (the same variant and parameters
 * on two machines are two identities); the historic SQL stays here for the migrations that made
 * them.
 *
 * A migration that rebuilds `results` or `runs` (create, copy, drop, rename) drops these
 * triggers: it must create them again (tests/lib/store/schema_test.ts checks they exist).
 *
 * @module
 */
import { FINISHED } from "./status.ts";

/**
 * What a finished result leaving a model does to `model_latest`: the count goes down, the
 * row goes when it was the last one, and the newest id is looked up again through the index.
 */
const LEAVE_MODEL_LATEST = `
  DELETE FROM model_latest WHERE model_id = OLD.model_id AND ok_results <= 1;
  UPDATE model_latest SET ok_results = ok_results - 1,
    result_id = (SELECT MAX(id) FROM results WHERE status IN ${FINISHED} AND model_id = OLD.model_id)
  WHERE model_id = OLD.model_id;`;

/** What a finished result arriving at a model does to `model_latest`. */
const ENTER_MODEL_LATEST = `
  INSERT INTO model_latest (model_id, result_id, ok_results) VALUES (NEW.model_id, NEW.id, 1)
  ON CONFLICT (model_id) DO UPDATE
    SET result_id = MAX(result_id, excluded.result_id), ok_results = ok_results + 1;`;

/**
 * The newest finished result of every model variant and the stored totals, precomputed: the
 * dashboard reads them in time proportional to the number of variants, whatever the history and
 * whatever the SQLite version's planner does with a derived `latest` (3.53 flattens it and scans
 * it again per row). Triggers keep them current inside the transaction that writes a result or
 * a run, so every writer (store, seeds, a sqlite3 shell) keeps them right.
 *
 * A migration that rebuilds `results` or `runs` (create, copy, drop, rename) drops these
 * triggers: it must create them again (tests/lib/store/schema_test.ts checks they exist).
 */
export const MODEL_LATEST_TRIGGERS_SQL = `
  CREATE TRIGGER results_latest_insert AFTER INSERT ON results
    WHEN NEW.status IN ${FINISHED} BEGIN ${ENTER_MODEL_LATEST} END;
  CREATE TRIGGER results_latest_enter AFTER UPDATE OF status, model_id ON results
    WHEN NEW.status IN ${FINISHED}
      AND (OLD.status NOT IN ${FINISHED} OR OLD.model_id <> NEW.model_id)
    BEGIN ${ENTER_MODEL_LATEST} END;
  CREATE TRIGGER results_latest_leave AFTER UPDATE OF status, model_id ON results
    WHEN OLD.status IN ${FINISHED}
      AND (NEW.status NOT IN ${FINISHED} OR OLD.model_id <> NEW.model_id)
    BEGIN ${LEAVE_MODEL_LATEST} END;
  CREATE TRIGGER results_latest_delete AFTER DELETE ON results
    WHEN OLD.status IN ${FINISHED} BEGIN ${LEAVE_MODEL_LATEST} END;
`;

export const MODEL_LATEST_TABLES_SQL = `
  CREATE TABLE model_latest (
    model_id INTEGER PRIMARY KEY REFERENCES models(id) ON DELETE CASCADE,
    result_id INTEGER NOT NULL,
    ok_results INTEGER NOT NULL
  );
  INSERT INTO model_latest (model_id, result_id, ok_results)
    SELECT model_id, MAX(id), COUNT(*) FROM results WHERE status IN ${FINISHED} GROUP BY model_id;
  CREATE TABLE totals (id INTEGER PRIMARY KEY CHECK (id = 1), runs INTEGER NOT NULL);
  INSERT INTO totals (id, runs) SELECT 1, COUNT(*) FROM runs;
  ${MODEL_LATEST_TRIGGERS_SQL}
  CREATE TRIGGER runs_total_insert AFTER INSERT ON runs
    BEGIN UPDATE totals SET runs = runs + 1 WHERE id = 1; END;
  CREATE TRIGGER runs_total_delete AFTER DELETE ON runs
    BEGIN UPDATE totals SET runs = runs - 1 WHERE id = 1; END;
`;

/** The triggers of {@linkcode MODEL_LATEST_TABLES_SQL}. */
export const MODEL_LATEST_TRIGGERS = [
  "results_latest_insert",
  "results_latest_enter",
  "results_latest_leave",
  "results_latest_delete",
  "runs_total_insert",
  "runs_total_delete",
];

/** Schema 8's refresh of `model_latest` and `totals` (historic: the rebuild of migration 8). */
export const MODEL_LATEST_REFRESH_SQL = `
  DELETE FROM model_latest;
  INSERT INTO model_latest (model_id, result_id, ok_results)
    SELECT model_id, MAX(id), COUNT(*) FROM results WHERE status IN ${FINISHED} GROUP BY model_id;
  INSERT OR REPLACE INTO totals (id, runs) SELECT 1, COUNT(*) FROM runs;
`;

/** What a finished result leaving its identity does: the count goes down, the row goes with the last. */
const LEAVE_IDENTITY = `
  DELETE FROM identity_latest
    WHERE model_id = OLD.model_id AND params_hash = OLD.params_hash AND ok_results <= 1;
  UPDATE identity_latest SET ok_results = ok_results - 1,
    result_id = (SELECT MAX(id) FROM results WHERE status IN ${FINISHED}
                 AND model_id = OLD.model_id AND params_hash = OLD.params_hash)
  WHERE model_id = OLD.model_id AND params_hash = OLD.params_hash;`;

/** What a finished result arriving at its identity does. */
const ENTER_IDENTITY = `
  INSERT INTO identity_latest (model_id, params_hash, result_id, ok_results)
    VALUES (NEW.model_id, NEW.params_hash, NEW.id, 1)
  ON CONFLICT (model_id, params_hash) DO UPDATE
    SET result_id = MAX(result_id, excluded.result_id), ok_results = ok_results + 1;`;

const MOVED = "(OLD.model_id <> NEW.model_id OR OLD.params_hash <> NEW.params_hash)";

/** The triggers that keep `identity_latest` current. */
export const IDENTITY_TRIGGERS_SQL = `
  CREATE TRIGGER results_latest_insert AFTER INSERT ON results
    WHEN NEW.status IN ${FINISHED} BEGIN ${ENTER_IDENTITY} END;
  CREATE TRIGGER results_latest_enter AFTER UPDATE OF status, model_id, params_hash ON results
    WHEN NEW.status IN ${FINISHED} AND (OLD.status NOT IN ${FINISHED} OR ${MOVED})
    BEGIN ${ENTER_IDENTITY} END;
  CREATE TRIGGER results_latest_leave AFTER UPDATE OF status, model_id, params_hash ON results
    WHEN OLD.status IN ${FINISHED} AND (NEW.status NOT IN ${FINISHED} OR ${MOVED})
    BEGIN ${LEAVE_IDENTITY} END;
  CREATE TRIGGER results_latest_delete AFTER DELETE ON results
    WHEN OLD.status IN ${FINISHED} BEGIN ${LEAVE_IDENTITY} END;
`;

/** The rows of `identity_latest`, from the history. */
const FILL_IDENTITY = `
  INSERT INTO identity_latest (model_id, params_hash, result_id, ok_results)
    SELECT model_id, params_hash, MAX(id), COUNT(*) FROM results WHERE status IN ${FINISHED}
    GROUP BY model_id, params_hash;`;

/** Schema 9: `model_latest` and its triggers replaced by `identity_latest` and its own. */
export const IDENTITY_LATEST_SQL = `
  DROP TRIGGER IF EXISTS results_latest_insert;
  DROP TRIGGER IF EXISTS results_latest_enter;
  DROP TRIGGER IF EXISTS results_latest_leave;
  DROP TRIGGER IF EXISTS results_latest_delete;
  DROP TABLE IF EXISTS model_latest;
  CREATE TABLE identity_latest (
    model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    params_hash TEXT NOT NULL,
    result_id INTEGER NOT NULL,
    ok_results INTEGER NOT NULL,
    PRIMARY KEY (model_id, params_hash)
  ) WITHOUT ROWID;
  ${FILL_IDENTITY}
  ${IDENTITY_TRIGGERS_SQL}
`;

/**
 * Schema 10: the machine is part of the identity. `identity_latest` is keyed by variant,
 * parameters and machine (`machine_key`: `results.machine_id`, or '' for a result of an unknown
 * machine, since a key column cannot be null). Its table and its rows are portable SQL
 * ({@linkcode MACHINE_IDENTITY_SQL}); the triggers that keep it are SQLite's
 * ({@linkcode MACHINE_IDENTITY_TRIGGERS_SQL}).
 */
const MACHINE_KEY = (row: "OLD" | "NEW") => `COALESCE(${row}.machine_id, '')`;

/** The rows of the schema 10 `identity_latest`, from the history (portable SQL). */
const FILL_MACHINE_IDENTITY = `
  INSERT INTO identity_latest (model_id, params_hash, machine_key, result_id, ok_results)
    SELECT model_id, params_hash, COALESCE(machine_id, ''), MAX(id), COUNT(*) FROM results
    WHERE status IN ${FINISHED} GROUP BY model_id, params_hash, COALESCE(machine_id, '');`;

/** Schema 10's `identity_latest`, replacing schema 9's and filled from the history (portable). */
export const MACHINE_IDENTITY_SQL = `
  DROP TABLE identity_latest;
  CREATE TABLE identity_latest (
    model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    params_hash TEXT NOT NULL,
    machine_key TEXT NOT NULL,
    result_id INTEGER NOT NULL,
    ok_results INTEGER NOT NULL,
    PRIMARY KEY (model_id, params_hash, machine_key)
  );
  ${FILL_MACHINE_IDENTITY}
`;

const SAME_IDENTITY = `model_id = OLD.model_id AND params_hash = OLD.params_hash
    AND machine_key = ${MACHINE_KEY("OLD")}`;

/** A finished result leaving its identity (schema 10). */
const LEAVE_MACHINE_IDENTITY = `
  DELETE FROM identity_latest WHERE ${SAME_IDENTITY} AND ok_results <= 1;
  UPDATE identity_latest SET ok_results = ok_results - 1,
    result_id = (SELECT MAX(id) FROM results WHERE status IN ${FINISHED}
                 AND model_id = OLD.model_id AND params_hash = OLD.params_hash
                 AND machine_id IS OLD.machine_id)
  WHERE ${SAME_IDENTITY};`;

/** A finished result arriving at its identity (schema 10). */
const ENTER_MACHINE_IDENTITY = `
  INSERT INTO identity_latest (model_id, params_hash, machine_key, result_id, ok_results)
    VALUES (NEW.model_id, NEW.params_hash, ${MACHINE_KEY("NEW")}, NEW.id, 1)
  ON CONFLICT (model_id, params_hash, machine_key) DO UPDATE
    SET result_id = MAX(result_id, excluded.result_id), ok_results = ok_results + 1;`;

const MACHINE_MOVED = "(OLD.model_id <> NEW.model_id OR OLD.params_hash <> NEW.params_hash " +
  "OR OLD.machine_id IS NOT NEW.machine_id)";

/**
 * SQLite-specific: the triggers that keep schema 10's `identity_latest` current (a PostgreSQL
 * store needs its own trigger functions for the same four events).
 */
export const MACHINE_IDENTITY_TRIGGERS_SQL = `
  DROP TRIGGER IF EXISTS results_latest_insert;
  DROP TRIGGER IF EXISTS results_latest_enter;
  DROP TRIGGER IF EXISTS results_latest_leave;
  DROP TRIGGER IF EXISTS results_latest_delete;
  CREATE TRIGGER results_latest_insert AFTER INSERT ON results
    WHEN NEW.status IN ${FINISHED} BEGIN ${ENTER_MACHINE_IDENTITY} END;
  CREATE TRIGGER results_latest_enter
    AFTER UPDATE OF status, model_id, params_hash, machine_id ON results
    WHEN NEW.status IN ${FINISHED} AND (OLD.status NOT IN ${FINISHED} OR ${MACHINE_MOVED})
    BEGIN ${ENTER_MACHINE_IDENTITY} END;
  CREATE TRIGGER results_latest_leave
    AFTER UPDATE OF status, model_id, params_hash, machine_id ON results
    WHEN OLD.status IN ${FINISHED} AND (NEW.status NOT IN ${FINISHED} OR ${MACHINE_MOVED})
    BEGIN ${LEAVE_MACHINE_IDENTITY} END;
  CREATE TRIGGER results_latest_delete AFTER DELETE ON results
    WHEN OLD.status IN ${FINISHED} BEGIN ${LEAVE_MACHINE_IDENTITY} END;
`;

/**
 * Schema 12: `identity_latest.prev_id`, the newest result of the identity before its newest
 * finished one, of the same backend, whose status is `ok` (a partial result is not compared
 * against); null when there is none: the row the results table's change (Δ, Welch's test)
 * compares with. Kept by the same triggers as the newest id, so that the dashboard reads it in
 * one seek per identity instead of searching each identity's history (PostgreSQL cannot seek
 * `machine_id IS NOT DISTINCT FROM` in an index).
 *
 * {@linkcode previousOf} looks it up for one identity, given as SQL expressions of its key
 * (portable SQL).
 */
const previousOf = (model: string, hash: string, machineKey: string) =>
  `(SELECT MAX(p.id) FROM results p WHERE p.model_id = ${model} AND p.params_hash = ${hash}
      AND COALESCE(p.machine_id, '') = ${machineKey} AND p.status = 'ok'
      AND p.id < identity_latest.result_id
      AND p.backend = (SELECT n.backend FROM results n WHERE n.id = identity_latest.result_id))`;

/** Every row's `prev_id` from the history (portable SQL: both backends' fill and refresh). */
export const FILL_PREVIOUS_SQL = `
  UPDATE identity_latest SET prev_id = ${
  previousOf(
    "identity_latest.model_id",
    "identity_latest.params_hash",
    "identity_latest.machine_key",
  )
};`;

/** The `prev_id` of the identity of `row` (OLD or NEW) looked up again (SQLite triggers). */
const REFRESH_PREVIOUS = (row: "OLD" | "NEW") => `
  UPDATE identity_latest SET prev_id = ${
  previousOf(`${row}.model_id`, `${row}.params_hash`, MACHINE_KEY(row))
}
  WHERE model_id = ${row}.model_id AND params_hash = ${row}.params_hash
    AND machine_key = ${MACHINE_KEY(row)};`;

/**
 * SQLite: schema 10's triggers again, each ending with the identity's `prev_id` looked up
 * after its newest id changed (one seek in the identity's history). SQLite has one writer at a
 * time; PostgreSQL's twin is pg/previous.ts. A finished result turning from `ok` to `partial`
 * or back looks it up too (`results_previous_status`).
 */
export const PREVIOUS_TRIGGERS_SQL = `
  DROP TRIGGER IF EXISTS results_latest_insert;
  DROP TRIGGER IF EXISTS results_latest_enter;
  DROP TRIGGER IF EXISTS results_latest_leave;
  DROP TRIGGER IF EXISTS results_latest_delete;
  CREATE TRIGGER results_latest_insert AFTER INSERT ON results
    WHEN NEW.status IN ${FINISHED} BEGIN ${ENTER_MACHINE_IDENTITY} ${REFRESH_PREVIOUS("NEW")} END;
  CREATE TRIGGER results_latest_enter
    AFTER UPDATE OF status, model_id, params_hash, machine_id ON results
    WHEN NEW.status IN ${FINISHED} AND (OLD.status NOT IN ${FINISHED} OR ${MACHINE_MOVED})
    BEGIN ${ENTER_MACHINE_IDENTITY} ${REFRESH_PREVIOUS("NEW")} END;
  CREATE TRIGGER results_latest_leave
    AFTER UPDATE OF status, model_id, params_hash, machine_id ON results
    WHEN OLD.status IN ${FINISHED} AND (NEW.status NOT IN ${FINISHED} OR ${MACHINE_MOVED})
    BEGIN ${LEAVE_MACHINE_IDENTITY} ${REFRESH_PREVIOUS("OLD")} END;
  CREATE TRIGGER results_latest_delete AFTER DELETE ON results
    WHEN OLD.status IN ${FINISHED} BEGIN ${LEAVE_MACHINE_IDENTITY} ${REFRESH_PREVIOUS("OLD")} END;
  CREATE TRIGGER results_previous_status AFTER UPDATE OF status ON results
    WHEN OLD.status IN ${FINISHED} AND NEW.status IN ${FINISHED} AND OLD.status <> NEW.status
      AND NOT ${MACHINE_MOVED}
    BEGIN ${REFRESH_PREVIOUS("NEW")} END;
`;

/** Schema 12's column and its values (portable SQL; SQLite's triggers: PREVIOUS_TRIGGERS_SQL). */
export const PREVIOUS_COLUMN_SQL = `
  ALTER TABLE identity_latest ADD COLUMN prev_id INTEGER;
  ${FILL_PREVIOUS_SQL}
`;

/** The triggers of the current schema (`identity_latest` and the run total). */
export const LATEST_TRIGGERS = [
  "results_latest_insert",
  "results_latest_enter",
  "results_latest_leave",
  "results_latest_delete",
  "results_previous_status",
  "runs_total_insert",
  "runs_total_delete",
  // Schema 13 (result_edits.ts).
  "results_edited",
  "results_deleted",
];

/**
 * Computes `identity_latest` and `totals` again from the history: what the triggers keep current,
 * for a writer that had to bypass them (clearing the store drops them for its deletes).
 */
export const REFRESH_DERIVED_SQL = `
  DELETE FROM identity_latest;
  ${FILL_MACHINE_IDENTITY}
  ${FILL_PREVIOUS_SQL}
  INSERT OR REPLACE INTO totals (id, runs) SELECT 1, COUNT(*) FROM runs;
`;
