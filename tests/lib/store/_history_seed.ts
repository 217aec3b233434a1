/**
 * Seeds a results database with a realistic history for the store's plan tests and the dashboard
 * benchmark: a fixed number of model variants (independent of the number of runs), results
 * spread over them with a Zipf-like popularity (a few variants retested often, most a few
 * times), interleaved in time as real retests are, with failed and stopped results, several
 * parameter sets per variant and 3–10 runs per result. Deterministic for a given `seed`.
 *
 * @module
 */
import { sqliteOf, type StoreDb } from "../../../lib/store/database.ts";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { createRandom } from "../../../lib/engine/prng.ts";

/** Options of {@linkcode seedHistory}. */
export interface HistorySeedOptions {
  /** Stored runs to write (about; the last result is cut to reach it). */
  runs: number;
  /** Model variants (`name@quant`). @default 150 */
  variants?: number;
  /** PRNG seed. @default 42 */
  seed?: number;
}

/** What {@linkcode seedHistory} wrote. */
export interface HistorySeeded {
  variants: number;
  results: number;
  okResults: number;
  runs: number;
}

const FAMILIES = [
  ["qwen", "qwen3", ["0.6B", "1.7B", "4B", "8B", "14B", "32B"]],
  ["google", "gemma3", ["1B", "4B", "12B", "27B"]],
  ["meta", "llama", ["1B", "3B", "8B", "70B"]],
  ["mistralai", "mistral", ["7B", "24B"]],
  ["microsoft", "phi3", ["3.8B", "14B"]],
  ["deepseek", "qwen2", ["1.5B", "7B", "14B"]],
  ["ibm", "granite", ["2B", "8B"]],
] as const;
const QUANTS = ["q4_k_m", "q8_0", "q5_k_m", "q6_k", "iq4_xs", "q3_k_l", "f16", "q4_0"];

interface Variant {
  key: string;
  name: string;
  quant: string;
  arch: string;
  params: string;
  billions: number;
  speed: number;
}

function variantsOf(count: number): Variant[] {
  const bases = FAMILIES.flatMap(([org, arch, sizes]) =>
    sizes.map((size) => ({ org, arch, size }))
  );
  const out: Variant[] = [];
  for (let i = 0; out.length < count; i++) {
    const { org, arch, size } = bases[i % bases.length]!;
    const round = Math.floor(i / bases.length);
    const name = `${org}/${arch}-${size.toLowerCase()}${round ? `-v${round + 1}` : ""}`;
    const billions = parseFloat(size);
    for (const quant of QUANTS.slice(0, 1 + (i % 4))) {
      if (out.length === count) break;
      out.push({
        key: `${name}@${quant}`,
        name,
        quant,
        arch,
        params: size,
        billions,
        speed: 400 / (1 + billions) + 2,
      });
    }
  }
  return out;
}

function insertModels(db: DatabaseSync, variants: Variant[]): number[] {
  const stmt = db.prepare(
    `INSERT INTO models (model_key, model_name, quantization, architecture, params_size,
       size_bytes, max_context_length, format, has_vision, has_tools, first_seen, last_seen)
     VALUES (?, ?, ?, ?, ?, ?, 32768, 'gguf', ?, ?, '2024-01-01T00:00:00.000Z',
       '2026-01-01T00:00:00.000Z')`,
  );
  return variants.map((v, i) =>
    Number(
      stmt.run(
        v.key,
        v.name,
        v.quant,
        v.arch,
        v.params,
        Math.round(v.billions * 0.6e9),
        i % 5 === 0 ? 1 : 0,
        i % 3 === 0 ? 1 : 0,
      ).lastInsertRowid,
    )
  );
}

function statements(db: DatabaseSync): { result: StatementSync; run: StatementSync } {
  return {
    result: db.prepare(
      `INSERT INTO results (model_id, params_hash, backend, status, started_at, finished_at,
         params_json, error, context_length, num_runs, runs_ok, runs_failed, tokens_per_sec_mean,
         tokens_per_sec_median, tokens_per_sec_p95, tokens_per_sec_min, tokens_per_sec_max,
         tokens_per_sec_std, tokens_per_sec_cv, ttft_ms_mean, ttft_ms_p95,
         e2e_tokens_per_sec_mean, prefill_tokens_per_sec_mean, total_ms_mean, vram_mb,
         tokens_per_sec_per_gb)
       VALUES (?, ?, 'rest', ?, ?, ?, '{}', ?, 2048, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
         ?, ?)`,
    ),
    run: db.prepare(
      `INSERT INTO runs (result_id, run_index, created_at, status, tokens_in, tokens_out,
         ttft_ms, total_ms, tokens_per_sec)
       VALUES (?, ?, ?, ?, 24, 256, ?, ?, ?)`,
    ),
  };
}

/** Writes the history into `db` (an opened, migrated results database) in one transaction. */
export function seedHistory(store: StoreDb, options: HistorySeedOptions): HistorySeeded {
  const db = sqliteOf(store);
  const random = createRandom(options.seed ?? 42);
  const rand = () => random.next();
  const variants = variantsOf(options.variants ?? 150);
  const weights = variants.map((_, i) => 1 / Math.pow(i + 1, 0.8));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  weights.reduce((acc, w, i) => (cumulative[i] = acc + w / total), 0);
  const pick = () => {
    const x = rand();
    const i = cumulative.findIndex((c) => c >= x);
    return i < 0 ? variants.length - 1 : i;
  };
  const out: HistorySeeded = { variants: variants.length, results: 0, okResults: 0, runs: 0 };
  db.exec("BEGIN IMMEDIATE");
  try {
    const ids = insertModels(db, variants);
    const { result, run } = statements(db);
    const start = Date.UTC(2024, 0, 1);
    const span = 2 * 365 * 86_400_000;
    for (let n = 0; out.runs < options.runs; n++) {
      const vi = pick();
      const v = variants[vi]!;
      const r = rand();
      const status = r < 0.9 ? "ok" : r < 0.96 ? "failed" : "stopped";
      const numRuns = [3, 3, 5, 5, 10][Math.floor(rand() * 5)]!;
      const runs = Math.min(
        status === "ok" ? numRuns : Math.floor(rand() * numRuns),
        options.runs - out.runs,
      );
      const speed = v.speed * (0.9 + rand() * 0.2);
      const when = new Date(start + (span * out.runs) / options.runs).toISOString();
      const vram = v.billions * 700 + 300;
      const id = Number(
        result.run(
          ids[vi]!,
          `h${Math.floor(rand() * 4)}`,
          status,
          when,
          when,
          status === "failed" ? "Model unloaded" : null,
          numRuns,
          runs,
          numRuns - runs,
          status === "ok" ? speed : null,
          speed,
          speed * 1.05,
          speed * 0.95,
          speed * 1.06,
          speed * 0.03,
          0.03,
          80 + v.billions * 20,
          90 + v.billions * 22,
          speed * 0.9,
          speed * 8,
          256_000 / speed,
          vram,
          speed / (vram / 1024),
        ).lastInsertRowid,
      );
      for (let i = 0; i < runs; i++) {
        const s = speed * (0.97 + rand() * 0.06);
        run.run(id, i, when, "ok", 80 + v.billions * 20, 256_000 / s, s);
      }
      out.results++;
      if (status === "ok") out.okResults++;
      out.runs += runs;
    }
    db.exec("COMMIT");
  } catch (err) {
    db.exec("ROLLBACK");
    throw err;
  }
  return out;
}
