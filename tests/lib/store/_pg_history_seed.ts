/**
 * A large history in a PostgreSQL store, written in bulk by the server itself (`generate_series`,
 * triggers off while it is written, then `identity_latest` and `totals` recounted as after any
 * bulk write): `variants` model variants with a Zipf-like popularity, four machines, four
 * parameter sets, results of 10–50 runs (90% ok, 6% failed, 4% stopped, the unfinished ones cut
 * short), spread over two years, until `runs` runs are stored.
 *
 * @module
 */
import { PG_REFRESH_DERIVED_SQL } from "../../../lib/store/pg/schema.ts";

/** What was written. */
export interface PgSeeded {
  variants: number;
  results: number;
  runs: number;
}

/** Runs SQL as the superuser (tests/_postgres.ts `admin`). */
type Admin = (sql: string) => Promise<Record<string, unknown>[]>;

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** Fills the (migrated, empty) store of `admin`'s database. */
export async function seedPostgres(
  admin: Admin,
  options: { runs: number; variants: number },
): Promise<PgSeeded> {
  // 30 runs per result on average: enough results to reach the runs, the last ones cut off.
  const results = Math.ceil(options.runs / 27);
  await admin(`
    SET search_path TO localbench;
    SET session_replication_role = replica;
    INSERT INTO machines (id, hostname, os, arch, cpu_model, cpu_cores, ram_gb, gpus,
        model_server, model_server_version, description_json, first_seen, last_seen)
      SELECT 'm' || g, 'box-' || g, 'linux', 'x86_64', 'CPU ' || g, 8 * g, 32.0 * g,
        'GPU ' || g, 'lmstudio', '0.3.' || g, '{}', '2024-01-01T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z'
      FROM generate_series(1, 4) g;
    INSERT INTO models (model_key, model_name, quantization, architecture, params_size,
        size_bytes, max_context_length, format, has_vision, has_tools, first_seen, last_seen)
      SELECT 'org' || (g % 7) || '/model-' || g || '@' || q, 'org' || (g % 7) || '/model-' || g,
        q, 'arch' || (g % 7), (1 + g % 30) || 'B', (1 + g % 30) * 600000000::bigint, 32768, 'gguf',
        (g % 5 = 0)::int, (g % 3 = 0)::int, '2024-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      FROM generate_series(1, ${options.variants}) g,
        LATERAL (SELECT (ARRAY['q4_k_m','q8_0','q5_k_m','q6_k'])[1 + g % 4] AS q) qq;
    SELECT setseed(0.42);
    CREATE TEMP TABLE seed AS
      SELECT g, random() AS s, 10 + floor(random() * 41)::int AS n,
        1 + floor(${options.variants} * power(random(), 2.5))::int AS model_id,
        floor(random() * 4)::int AS hash, 1 + floor(random() * 4)::int AS machine
      FROM generate_series(1, ${results}) g;
    INSERT INTO results (id, model_id, params_hash, backend, status, started_at, finished_at,
        params_json, error, context_length, num_runs, runs_ok, runs_failed, machine_id,
        tokens_per_sec_mean, tokens_per_sec_median, tokens_per_sec_p95, tokens_per_sec_min,
        tokens_per_sec_max, tokens_per_sec_std, tokens_per_sec_cv, ttft_ms_mean, ttft_ms_p95,
        e2e_tokens_per_sec_mean, prefill_tokens_per_sec_mean, total_ms_mean, vram_mb,
        tokens_per_sec_per_gb)
      SELECT g, model_id, 'h' || hash, 'rest', st,
        to_char(timestamp '2024-01-01' + g * interval '1 minute' * ${
    Math.max(1, Math.floor(1_000_000 / results))
  }, ${ISO}),
        to_char(timestamp '2024-01-01' + g * interval '1 minute' * ${
    Math.max(1, Math.floor(1_000_000 / results))
  } + interval '5 minutes', ${ISO}),
        '{}', CASE WHEN st = 'ok' THEN NULL ELSE 'stopped by the user' END, 2048, n,
        CASE WHEN st = 'ok' THEN n ELSE n / 3 END, 0, 'm' || machine,
        v, v, v * 1.1, v * 0.9, v * 1.1, v * 0.05, 0.05, 40 + s * 20, 60 + s * 30, v * 0.9,
        v * 10, 3000 + s * 1000, 700 * (1 + model_id % 30) + 300, v / (1 + model_id % 30)
      FROM (SELECT *, CASE WHEN s < 0.9 THEN 'ok' WHEN s < 0.96 THEN 'failed' ELSE 'stopped' END
              AS st, 400.0 / (2 + model_id % 30) * (0.9 + s * 0.2) AS v FROM seed) x;
    SELECT setval(pg_get_serial_sequence('results', 'id'), ${results});
    INSERT INTO runs (result_id, run_index, created_at, status, tokens_in, tokens_out, ttft_ms,
        total_ms, tokens_per_sec)
      SELECT id, i, started_at, 'ok', 24, 256, ttft_ms_mean, total_ms_mean, tokens_per_sec_mean
      FROM results, generate_series(0, runs_ok - 1) i;
    DELETE FROM runs WHERE id > ${options.runs};
    SET session_replication_role = origin;
    ${PG_REFRESH_DERIVED_SQL}
    UPDATE store_changes SET n = n + 1;
    ANALYZE;
  `);
  const [row] = await admin(
    "SELECT (SELECT COUNT(*)::int FROM localbench.results) AS results, (SELECT runs::int FROM localbench.totals) AS runs",
  );
  return { variants: options.variants, results: row!.results as number, runs: row!.runs as number };
}
