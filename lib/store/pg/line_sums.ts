/**
 * Schema 11 on PostgreSQL: `line_sums` (lib/store/line_sums.ts) with the same table, filled from
 * the history by the same portable statement, and kept current by PL/pgSQL where SQLite has its
 * five triggers (`LINE_SUMS_TRIGGERS_SQL`): one trigger function for the insert, the
 * delete and the updates, the same three cases.
 *
 * - A finished result after the newest one of its line adds its x and y to the sums.
 * - A finished result arriving anywhere else counts and marks the line `stale`; a new line starts
 *   with it.
 * - A finished result leaving its line (deleted, unfinished, moved to another variant, backend,
 *   parameters or machine) counts down and marks it stale; the line goes with its last result.
 * - A change to a finished result's id, speed, time or parallel round marks its line stale.
 *
 * The store computes stale lines again in the writing transaction (`refreshStaleLines`, portable).
 *
 * @module
 */
import { FINISHED } from "../status.ts";
import { FILL_LINE_SUMS_SQL, LINE_SUMS_TABLE_SQL } from "../line_sums.ts";
import { pgColumnType } from "./schema.ts";

/** The key of a line in the functions' arguments. */
const LINE = "model_id = m AND backend = b AND params_hash = h AND machine_key = k";

/** `y` as a count (1: measured, 0: no speed). */
const ONE = "CASE WHEN y IS NULL THEN 0 ELSE 1 END";

const ENTER = `
  CREATE FUNCTION line_sums_enter(m BIGINT, b TEXT, h TEXT, k TEXT, rid BIGINT,
    y DOUBLE PRECISION, fin TEXT, par BOOLEAN) RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    -- After the newest of its line: its x (total + 1, the old total) and y added.
    UPDATE line_sums SET total = total + 1, rev = rev + 1, n = n + ${ONE},
      sx = sx + CASE WHEN y IS NULL THEN 0 ELSE total + 1 END,
      sxx = sxx + CASE WHEN y IS NULL THEN 0 ELSE (total + 1) * (total + 1) END,
      sy = sy + COALESCE(y, 0),
      sxy = sxy + COALESCE((total + 1) * y, 0),
      min_y = CASE WHEN y IS NOT NULL AND (min_y IS NULL OR y < min_y) THEN y ELSE min_y END,
      max_y = CASE WHEN y IS NOT NULL AND (max_y IS NULL OR y > max_y) THEN y ELSE max_y END,
      first_run = CASE WHEN y IS NOT NULL AND fin IS NOT NULL
        AND (first_run IS NULL OR fin < first_run) THEN fin ELSE first_run END,
      last_run = CASE WHEN y IS NOT NULL AND fin IS NOT NULL
        AND (last_run IS NULL OR fin > last_run) THEN fin ELSE last_run END,
      last_id = rid,
      first_measured = CASE WHEN y IS NOT NULL AND first_measured IS NULL THEN rid
        ELSE first_measured END,
      last_measured = CASE WHEN y IS NOT NULL THEN rid ELSE last_measured END,
      parallel_id = CASE WHEN par THEN rid ELSE parallel_id END
    WHERE ${LINE} AND stale = 0 AND last_id < rid;
    IF FOUND THEN RETURN; END IF;
    -- Before a newer one (the positions after it move), or the line is stale already.
    UPDATE line_sums SET total = total + 1, stale = 1, rev = rev + 1,
        last_id = GREATEST(last_id, rid)
      WHERE ${LINE} AND (stale = 1 OR last_id > rid);
    IF FOUND THEN RETURN; END IF;
    INSERT INTO line_sums (model_id, backend, params_hash, machine_key, total, n, sx, sxx, sy,
        sxy, min_y, max_y, first_run, last_run, first_id, last_id, first_measured,
        last_measured, parallel_id, stale, rev)
      VALUES (m, b, h, k, 1, ${ONE}, ${ONE}, ${ONE}, COALESCE(y, 0), COALESCE(y, 0), y, y,
        CASE WHEN y IS NULL THEN NULL ELSE fin END, CASE WHEN y IS NULL THEN NULL ELSE fin END,
        rid, rid, CASE WHEN y IS NULL THEN NULL ELSE rid END,
        CASE WHEN y IS NULL THEN NULL ELSE rid END, CASE WHEN par THEN rid END, 0, 0)
    ON CONFLICT (model_id, backend, params_hash, machine_key) DO NOTHING;
  END $$;`;

const LEAVE = `
  CREATE FUNCTION line_sums_leave(m BIGINT, b TEXT, h TEXT, k TEXT) RETURNS void
  LANGUAGE sql AS $$
    DELETE FROM line_sums WHERE ${LINE} AND total <= 1;
    UPDATE line_sums SET total = total - 1, stale = 1, rev = rev + 1 WHERE ${LINE};
  $$;`;

const KEY = (row: "NEW" | "OLD") =>
  `${row}.model_id, ${row}.backend, ${row}.params_hash, COALESCE(${row}.machine_id, '')`;
const ENTER_NEW = `PERFORM line_sums_enter(${KEY("NEW")}, NEW.id, NEW.tokens_per_sec_mean,
        NEW.finished_at, NEW.n_parallel > 1 AND NEW.parallel_tokens_per_sec IS NOT NULL);`;
const LEAVE_OLD = `PERFORM line_sums_leave(${KEY("OLD")});`;

/**
 * The trigger function and its trigger: the PostgreSQL twin of SQLite's `LINE_SUMS_TRIGGERS_SQL`
 * (line_sums.ts; change both together).
 */
export const PG_LINE_SUMS_TRIGGERS_SQL = `${ENTER}${LEAVE}
  CREATE FUNCTION line_sums() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE moved BOOLEAN;
  BEGIN
    IF TG_OP = 'INSERT' THEN
      IF NEW.status IN ${FINISHED} THEN ${ENTER_NEW} END IF;
    ELSIF TG_OP = 'DELETE' THEN
      IF OLD.status IN ${FINISHED} THEN ${LEAVE_OLD} END IF;
    ELSE
      moved := OLD.model_id <> NEW.model_id OR OLD.backend <> NEW.backend
        OR OLD.params_hash <> NEW.params_hash OR OLD.machine_id IS DISTINCT FROM NEW.machine_id;
      IF OLD.status IN ${FINISHED} AND (NEW.status NOT IN ${FINISHED} OR moved) THEN
        ${LEAVE_OLD}
      END IF;
      IF NEW.status IN ${FINISHED} AND (OLD.status NOT IN ${FINISHED} OR moved) THEN
        ${ENTER_NEW}
      END IF;
      IF OLD.status IN ${FINISHED} AND NEW.status IN ${FINISHED} AND NOT moved AND (
        OLD.tokens_per_sec_mean IS DISTINCT FROM NEW.tokens_per_sec_mean
        OR OLD.finished_at IS DISTINCT FROM NEW.finished_at
        OR OLD.n_parallel IS DISTINCT FROM NEW.n_parallel
        OR OLD.parallel_tokens_per_sec IS DISTINCT FROM NEW.parallel_tokens_per_sec
        OR OLD.id <> NEW.id
      ) THEN
        UPDATE line_sums SET stale = 1, rev = rev + 1
          WHERE model_id = NEW.model_id AND backend = NEW.backend
            AND params_hash = NEW.params_hash AND machine_key = COALESCE(NEW.machine_id, '');
      END IF;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER line_sums AFTER INSERT OR DELETE OR UPDATE OF status, model_id, backend,
      params_hash, machine_id, id, tokens_per_sec_mean, finished_at, n_parallel,
      parallel_tokens_per_sec
    ON results FOR EACH ROW EXECUTE FUNCTION line_sums();
`;

/** Schema 11 on PostgreSQL: the table (PostgreSQL's types), its rows, its trigger. */
export const PG_LINE_SUMS_SQL = `${pgColumnType(LINE_SUMS_TABLE_SQL)}
  ${FILL_LINE_SUMS_SQL}
  ${PG_LINE_SUMS_TRIGGERS_SQL}`;
