/**
 * The parallel rounds of a model's benchmark (`--n-parallel N`, after its sequential runs).
 *
 * @module
 */
import type { ModelSession } from "./model_session.ts";
import { parallelRound } from "./parallel.ts";

/**
 * Parallel round `index` of a model: `n_parallel` concurrent requests, each stored as a run (a
 * failed one with its error and times); the round kept for the result's parallel figures.
 */
export async function runParallelRound(s: ModelSession, index: number): Promise<void> {
  const n = s.ctx.options.n_parallel;
  const runs = s.ctx.config.num_runs;
  s.ctx.emit({ type: "run_start", key: s.key, run: index + 1, runs, parallel: n });
  const round = await parallelRound(s.measure, s.instanceId!, n);
  s.rounds.push(round);
  const tokens = round.requests.reduce((a, m) => a + (m.tokens_out ?? 0), 0);
  s.ctx.emit({
    type: "round_end",
    key: s.key,
    round: index + 1,
    rounds: runs,
    parallel: n,
    ok: round.requests.length,
    failed: round.failures.length,
    tokens_per_sec: round.wall_ms > 0 && tokens > 0 ? tokens / (round.wall_ms / 1000) : null,
    wall_ms: round.wall_ms,
  });
  round.requests.forEach((metrics, j) =>
    s.ctx.store.addRun(s.resultId, {
      run_index: 1000 + index * n + j,
      parallel: n,
      ...metrics,
    })
  );
  // A failed request is a run too: its error and times are kept (and in --save-requests).
  round.failures.forEach((f, j) =>
    s.ctx.store.addRun(s.resultId, {
      run_index: 1000 + index * n + round.requests.length + j,
      parallel: n,
      status: "failed",
      error: f.error,
      total_ms: f.ended_at_ms - f.started_at_ms,
      started_at_ms: f.started_at_ms,
      ended_at_ms: f.ended_at_ms,
    })
  );
  for (const f of round.failures) s.warnings.push(`parallel request failed: ${f.error}`);
  s.failedRequests += round.failures.length;
}
