/**
 * Schema 13: `result_edits`, one row counting the changes to results that a reader caching
 * finished results' figures by id must not miss (the results table, results_table.ts): a
 * FINISHED result updated in place, and any result deleted (SQLite gives a deleted result's id
 * to the next new one). Bumped by triggers in the writing transaction; a running result
 * finishing, a new result and a new run do not bump it, so the cached figures of the other
 * results stay valid across every benchmark stored.
 *
 * Every path that changes a stored result, and why it is counted:
 * - `finishResult` (store.ts), `storeImported`'s finish (imported.ts), `interruptOwner` and the
 *   start's interrupted results (store.ts: `WHERE status = 'running'`): a `running` result made
 *   finished or failed: nothing cached had it (only the ids `identity_latest` names, finished
 *   ones, are cached); no bump needed, none made.
 * - `splitGrid` at a grid benchmark's end and `splitGridResults` (split.ts: the first cell is the
 *   finished grid result updated in place), data_migrations.ts's merges and clamps (schemas 6
 *   and 7: before these triggers, while the store opens and nothing is cached yet), and any
 *   other `UPDATE results` of a finished result (a `sqlite3` or `psql` shell): the update trigger
 *   (`OLD.status` finished).
 * - `deleteModel` (dashboard.ts: the cascade from `models`), any `DELETE FROM results`: the
 *   delete trigger (SQLite: per row; PostgreSQL: per statement, which the cascade runs too).
 * - Clearing (clear.ts): SQLite drops every trigger of the cleared tables for its deletes and
 *   PostgreSQL truncates: both bump the count themselves ({@linkcode BUMP_RESULT_EDITS_SQL});
 *   PostgreSQL's `TRUNCATE` trigger counts a truncation from outside localbench as well.
 * - Copying (copy.ts) and table rebuilds (rebuild.ts) insert: an id that is cached exists, so an
 *   insert cannot take it; a rebuild of `results` (schema 8, before this one) must make these
 *   triggers again (the schema tests check they exist).
 *
 * The lock: the row is taken by a writer after the store's write lock (`store_changes`,
 * transaction.ts) that every write transaction holds first, so it adds no lock order.
 *
 * @module
 */
import { FINISHED } from "./status.ts";

/** Bumps the count (in a writer that bypasses the triggers: clearing). */
export const BUMP_RESULT_EDITS_SQL = "UPDATE result_edits SET n = n + 1 WHERE id = 1";

/** Schema 13 on SQLite. */
export const RESULT_EDITS_SQL = `
  CREATE TABLE result_edits (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
  INSERT INTO result_edits (id, n) VALUES (1, 0);
  CREATE TRIGGER results_edited AFTER UPDATE ON results WHEN OLD.status IN ${FINISHED}
    BEGIN ${BUMP_RESULT_EDITS_SQL}; END;
  CREATE TRIGGER results_deleted AFTER DELETE ON results
    BEGIN ${BUMP_RESULT_EDITS_SQL}; END;
`;

/**
 * Schema 13 on PostgreSQL: the update trigger per row (only a finished row's update calls the
 * function), the delete and truncate one per statement (a cascade deleting thousands of results
 * bumps once per statement, not per row).
 */
export const PG_RESULT_EDITS_SQL = `
  CREATE TABLE result_edits (id INTEGER PRIMARY KEY CHECK (id = 1), n BIGINT NOT NULL);
  INSERT INTO result_edits (id, n) VALUES (1, 0);
  CREATE FUNCTION result_edited() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${BUMP_RESULT_EDITS_SQL};
    RETURN NULL;
  END $$;
  CREATE TRIGGER results_edited AFTER UPDATE ON results
    FOR EACH ROW WHEN (OLD.status IN ${FINISHED}) EXECUTE FUNCTION result_edited();
  CREATE TRIGGER results_deleted AFTER DELETE OR TRUNCATE ON results
    FOR EACH STATEMENT EXECUTE FUNCTION result_edited();
`;
