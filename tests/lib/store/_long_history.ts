/**
 * One model with a long history, written through the store's own API (`beginResult`,
 * `finishResult`) for the comparison's tests and benchmark: `points` finished results of
 * `qwen/qwen3-4b` over three lines (q4_k_m and q8_0 through REST, q4_k_m through the SDK with a
 * 64-token prompt), interleaved as retests are. Speeds drift slowly with a deterministic wobble;
 * one result in 97 has no speed (a partial result) and one in 50 has a parallel round.
 *
 * @module
 */
import { isPostgres, type ResultsStore } from "../../../lib/store/mod.ts";

/** The model the long history belongs to. */
export const LONG_MODEL = "qwen/qwen3-4b";

const LINES = [
  { quant: "q4_k_m", backend: "rest", hash: "h-default", params: {}, speed: 42 },
  { quant: "q8_0", backend: "rest", hash: "h-default", params: {}, speed: 29 },
  {
    quant: "q4_k_m",
    backend: "sdk",
    hash: "h-p64",
    params: { workload: { prompt_tokens: [64] } },
    speed: 45,
  },
] as const;

/**
 * Writes the results (synchronous writes off: a throw-away store) and returns, per line id
 * (`<model_key> · <backend> · <hash>`), the speeds written in order (null: none).
 */
export function seedLongHistory(
  store: ResultsStore,
  points: number,
  /** Tokens/s the speeds gain from the first result to the last. */
  drift = 3,
): Map<string, (number | null)[]> {
  if (!isPostgres(store.db)) store.db.exec("PRAGMA synchronous = OFF");
  const written = new Map<string, (number | null)[]>();
  for (let i = 0; i < points; i++) {
    // Two results of the first line for one of each other, as a favourite variant is retested.
    const line = LINES[[0, 0, 1, 2][i % 4]!]!;
    const key = `${LONG_MODEL}@${line.quant}`;
    const id = store.beginResult({
      model: { model_key: key, model_name: LONG_MODEL, quantization: line.quant },
      params_hash: line.hash,
      backend: line.backend,
      params: line.params,
      n_parallel: i % 50 === 7 ? 2 : undefined,
    });
    const measured = i % 97 !== 13;
    const speed = measured ? line.speed + (i / points) * drift + Math.sin(i * 0.7) * 1.5 : null;
    store.finishResult(id, {
      status: measured ? "ok" : "partial",
      aggregates: {
        tokens_per_sec_mean: speed,
        tokens_per_sec_std: measured ? 0.4 : null,
        runs_ok: measured ? 5 : 0,
        ttft_ms_mean: 80 + (i % 13),
        total_ms_mean: 1500 + (i % 29) * 3,
        parallel_tokens_per_sec: i % 50 === 7 ? 70 + (i % 5) : null,
      },
    });
    const lineId = `${key} · ${line.backend} · ${line.hash}`;
    if (!written.has(lineId)) written.set(lineId, []);
    written.get(lineId)!.push(speed);
  }
  return written;
}
