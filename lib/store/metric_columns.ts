/**
 * The aggregated metrics of a result and the statistics stored for each: the column names of
 * `results` that the schema adds and the aggregation fills.
 *
 * @module
 */

/** Statistics stored for each aggregated metric. */
export const STAT_SUFFIXES = [
  "mean",
  "median",
  "p95",
  "min",
  "max",
  "std",
  "ci_low",
  "ci_high",
  "cv",
];

/** Metrics aggregated per model (see DECISIONS.md "Metrics per run"). */
export const AGGREGATED_METRICS = [
  "tokens_per_sec", // decode tokens/s measured by the client
  "ttft_ms",
  "e2e_tokens_per_sec",
  "prefill_tokens_per_sec",
  "total_ms",
  "server_tokens_per_sec",
  "server_ttft_ms",
  "tpot_ms", // time per output token, 1000 ÷ decode tokens/s
  "itl_ms", // inter-token latency: every gap between token events, pooled over the runs
];

/** Percentiles stored beside the median for the latency metrics. */
export const LATENCY_PERCENTILES: readonly (readonly [string, number])[] = [
  ["p90", 0.9],
  ["p99", 0.99],
];

/** Metrics whose p90 and p99 are stored (`<metric>_p90`, `<metric>_p99`). */
export const LATENCY_METRICS = ["ttft_ms", "tpot_ms", "itl_ms", "total_ms"];
