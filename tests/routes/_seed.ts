/**
 * Seeds a results store for dashboard tests and the dashboard benchmark: model variants with a
 * history of finished results and their runs, written in one transaction.
 *
 * @module
 */
import { type ResultsStore, transaction } from "../../lib/store/mod.ts";
import { insertRow } from "../../lib/store/rows.ts";

/** Options of {@linkcode seedStore}. */
export interface SeedOptions {
  /** Model names (each gets the listed quantizations). */
  models?: string[];
  quants?: string[];
  /** Finished results per variant (history). @default 2 */
  resultsPerVariant?: number;
  /** Runs per result. @default 3 */
  runsPerResult?: number;
}

/** The default catalogue: names with `/`, three architectures. */
export const SEED_MODELS = ["qwen/qwen3-4b", "google/gemma-3-1b", "meta/llama-3.2-3b", "tiny"];

/** Seeds and returns the number of runs written. */
export function seedStore(store: ResultsStore, options: SeedOptions = {}): number {
  const models = options.models ?? SEED_MODELS;
  const quants = options.quants ?? ["q4_k_m", "q8_0"];
  const perVariant = options.resultsPerVariant ?? 2;
  const perResult = options.runsPerResult ?? 3;
  const archs = ["qwen3", "gemma3", "llama"];
  const db = store.db;
  let runs = 0;
  transaction(db, () => {
    models.forEach((name, mi) => {
      quants.forEach((quant, qi) => {
        const modelId = insertRow(db, "models", {
          model_key: `${name}@${quant}`,
          model_name: name,
          quantization: quant,
          architecture: archs[mi % archs.length]!,
          params_size: `${mi + 1}B`,
          first_seen: "2026-01-01T00:00:00.000Z",
          last_seen: "2026-01-01T00:00:00.000Z",
        });
        for (let h = 0; h < perVariant; h++) {
          const speed = 20 + mi * 10 + qi * 5 + h;
          const vram = 1000 + mi * 800 + qi * 400;
          const when = new Date(Date.UTC(2026, 0, 1 + h, 12, mi, qi)).toISOString();
          const resultId = insertRow(db, "results", {
            model_id: modelId,
            // Retests of one variant with the same parameters: one line of its history.
            params_hash: "hash0",
            backend: "rest",
            status: "ok",
            started_at: when,
            finished_at: when,
            params_json: "{}",
            num_runs: perResult,
            runs_ok: perResult,
            runs_failed: 0,
            context_length: 2048,
            tokens_per_sec_mean: speed,
            tokens_per_sec_median: speed,
            tokens_per_sec_std: 0.5,
            tokens_per_sec_p95: speed + 1,
            ttft_ms_mean: 100 + mi * 10 + h,
            total_ms_mean: 2000 - speed,
            vram_mb: vram,
            tokens_per_sec_per_gb: speed / (vram / 1024),
          });
          for (let r = 1; r <= perResult; r++) {
            insertRow(db, "runs", {
              result_id: resultId,
              run_index: r,
              created_at: when,
              status: "ok",
              tokens_per_sec: speed,
              ttft_ms: 100,
              total_ms: 2000,
              tokens_out: 64,
            });
            runs++;
          }
        }
      });
    });
  });
  return runs;
}
