/**
 * Schema 12 on PostgreSQL: `identity_latest.prev_id` (lib/store/latest.ts), the same column and
 * fill as SQLite's, kept by the trigger functions of schema 10 made again: each looks the
 * identity's previous `ok` result up once the identity's row is updated, in a statement of its
 * own.
 *
 * Concurrent writers: every finished result of an identity passes through the upsert or update
 * of that identity's row, which holds its row lock until the writer commits; the lookup is the
 * next statement of the function, and a volatile function's statement takes a new snapshot
 * (READ COMMITTED), so it sees every finished result of the identity that any earlier writer
 * committed. The last writer of an identity leaves the right `prev_id`.
 *
 * @module
 */
import { FINISHED } from "../status.ts";
import { FILL_PREVIOUS_SQL } from "../latest.ts";

/** The identity's previous `ok` result looked up again (the functions' arguments m, h, k). */
const REFRESH = `
    UPDATE identity_latest SET prev_id = (SELECT MAX(p.id) FROM results p
      WHERE p.model_id = m AND p.params_hash = h AND COALESCE(p.machine_id, '') = k
        AND p.status = 'ok' AND p.id < identity_latest.result_id
        AND p.backend = (SELECT n.backend FROM results n WHERE n.id = identity_latest.result_id))
    WHERE model_id = m AND params_hash = h AND machine_key = k;`;

/** Schema 12 on PostgreSQL: the column, its values and the trigger functions again. */
export const PG_PREVIOUS_SQL = `
  ALTER TABLE identity_latest ADD COLUMN prev_id BIGINT;
  ${FILL_PREVIOUS_SQL}
  CREATE OR REPLACE FUNCTION identity_enter(m BIGINT, h TEXT, k TEXT, rid BIGINT) RETURNS void
  LANGUAGE sql AS $$
    INSERT INTO identity_latest (model_id, params_hash, machine_key, result_id, ok_results)
      VALUES (m, h, k, rid, 1)
    ON CONFLICT (model_id, params_hash, machine_key) DO UPDATE
      SET result_id = GREATEST(identity_latest.result_id, excluded.result_id),
        ok_results = identity_latest.ok_results + 1;
    ${REFRESH}
  $$;
  CREATE OR REPLACE FUNCTION identity_leave(m BIGINT, h TEXT, k TEXT) RETURNS void
  LANGUAGE sql AS $$
    DELETE FROM identity_latest
      WHERE model_id = m AND params_hash = h AND machine_key = k AND ok_results <= 1;
    -- Row triggers run after the whole statement: one UPDATE taking every finished result of
    -- the identity finds none here until its last event deletes the row; keep the id till then.
    UPDATE identity_latest SET ok_results = ok_results - 1,
      result_id = COALESCE((SELECT MAX(id) FROM results WHERE status IN ${FINISHED}
                   AND model_id = m AND params_hash = h AND COALESCE(machine_id, '') = k),
                   result_id)
    WHERE model_id = m AND params_hash = h AND machine_key = k;
    ${REFRESH}
  $$;
  CREATE FUNCTION identity_previous(m BIGINT, h TEXT, k TEXT) RETURNS void
  LANGUAGE sql AS $$ ${REFRESH} $$;
  CREATE OR REPLACE FUNCTION results_latest() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE moved BOOLEAN;
  BEGIN
    IF TG_OP = 'INSERT' THEN
      IF NEW.status IN ${FINISHED} THEN
        PERFORM identity_enter(NEW.model_id, NEW.params_hash, COALESCE(NEW.machine_id, ''), NEW.id);
      END IF;
    ELSIF TG_OP = 'DELETE' THEN
      IF OLD.status IN ${FINISHED} THEN
        PERFORM identity_leave(OLD.model_id, OLD.params_hash, COALESCE(OLD.machine_id, ''));
      END IF;
    ELSE
      moved := OLD.model_id <> NEW.model_id OR OLD.params_hash <> NEW.params_hash
        OR OLD.machine_id IS DISTINCT FROM NEW.machine_id;
      IF OLD.status IN ${FINISHED} AND (NEW.status NOT IN ${FINISHED} OR moved) THEN
        PERFORM identity_leave(OLD.model_id, OLD.params_hash, COALESCE(OLD.machine_id, ''));
      END IF;
      IF NEW.status IN ${FINISHED} AND (OLD.status NOT IN ${FINISHED} OR moved) THEN
        PERFORM identity_enter(NEW.model_id, NEW.params_hash, COALESCE(NEW.machine_id, ''), NEW.id);
      END IF;
      -- ok ↔ partial: the identity's previous ok result may be another.
      IF OLD.status IN ${FINISHED} AND NEW.status IN ${FINISHED} AND OLD.status <> NEW.status
        AND NOT moved THEN
        PERFORM identity_previous(NEW.model_id, NEW.params_hash, COALESCE(NEW.machine_id, ''));
      END IF;
    END IF;
    RETURN NULL;
  END $$;
`;
