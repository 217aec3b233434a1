/**
 * Parallel rounds (`--n-parallel N`, REST and OpenAI-compatible backends): N concurrent streams
 * per round; aggregate throughput and per-request latency.
 *
 * @module
 */
import type { Row } from "../store/mod.ts";
import { type MeasureContext, measureOnce } from "./measure.ts";
import { type RunMetrics, runMetrics } from "./metrics.ts";
import { summarize } from "../stats.ts";

/** A request of a round that failed: why, and when it was sent and ended (Unix epoch ms). */
export interface FailedRequest {
  error: string;
  started_at_ms: number;
  ended_at_ms: number;
}

/** One finished round. */
export interface ParallelRound {
  wall_ms: number;
  requests: RunMetrics[];
  failures: FailedRequest[];
}

/** Runs `n` inferences at once and measures the round's wall time. */
export async function parallelRound(
  ctx: MeasureContext,
  instanceId: string,
  n: number,
): Promise<ParallelRound> {
  const started = performance.now();
  const startedAt = Date.now();
  const failures: FailedRequest[] = [];
  const settled = await Promise.allSettled(
    Array.from({ length: n }, () =>
      measureOnce(ctx, instanceId).catch((err) => {
        const error = err instanceof Error ? err.message : String(err);
        failures.push({ error, started_at_ms: startedAt, ended_at_ms: Date.now() });
        throw err;
      })),
  );
  const wall = performance.now() - started;
  const requests: RunMetrics[] = [];
  for (const s of settled) {
    if (s.status === "fulfilled") requests.push(runMetrics(s.value.result, s.value.sent_at_ms));
  }
  return { wall_ms: wall, requests, failures };
}

/** Aggregate columns of the parallel rounds: total tokens/s and request latency mean and p95. */
export function aggregateParallel(rounds: ParallelRound[]): Row {
  const throughput = rounds.map((r) => {
    const tokens = r.requests.reduce((a, m) => a + (m.tokens_out ?? 0), 0);
    return r.wall_ms > 0 && tokens > 0 ? tokens / (r.wall_ms / 1000) : null;
  });
  const latency = summarize(rounds.flatMap((r) => r.requests.map((m) => m.total_ms)));
  return {
    parallel_tokens_per_sec: summarize(throughput).mean,
    parallel_latency_ms_mean: latency.mean,
    parallel_latency_ms_p95: latency.p95,
  };
}
