/**
 * The load curve of a loaded model: every `--concurrency` level, then every `--request-rate`, each
 * with `--requests` requests or for `--duration` seconds (the first grid cell's prompt and output
 * length, drawn around them with a spread, or the dataset's next requests); each request is stored
 * as a run (`load_mode`, `load_level`, its targets and whether it stopped early), each level as a
 * `load_levels` row with the knee.
 *
 * @module
 */
import { workloadOf } from "./options.ts";
import type { Row } from "../store/mod.ts";
import { levelRow, type LoadMode, markKnee, runConcurrency, runRate } from "./load_curve.ts";
import { promptWithNonce } from "./measure.ts";
import { stoppedEarly } from "./workload.ts";
import type { PlannedRequest } from "./workload_plan.ts";
import type { ModelSession } from "./model_session.ts";

/**
 * What a level did not do as asked: a concurrency never reached (too few requests, or requests
 * that ended before the next was sent), and requests that waited for one of the server's slots.
 */
export function levelNotes(
  mode: LoadMode,
  level: number,
  inFlight: number,
  slots: number | null,
  requests: number,
): string[] {
  const what = mode === "concurrency" ? `concurrency ${level}` : `${level} requests/s`;
  const notes: string[] = [];
  if (mode === "concurrency" && inFlight < level) {
    notes.push(
      `load ${what} was never reached: at most ${inFlight} request(s) were in flight` +
        (requests < level ? ` (--requests ${requests} is below the level)` : ""),
    );
  }
  if (slots !== null && inFlight > slots) {
    notes.push(
      `load ${what}: up to ${inFlight - slots} request(s) queued at a time for one of the ` +
        `server's ${slots} slot(s); their TTFT includes the wait`,
    );
  }
  return notes;
}

/** Most requests of a `--duration` level (a bound on memory, far above what a level sends). */
export const MAX_DURATION_REQUESTS = 1_000_000;

/** Runs the load curve of `s`; returns the number of levels. */
export async function runLoadCurve(s: ModelSession): Promise<number> {
  const { options, store, emit, control, config } = s.ctx;
  const w = workloadOf(options);
  const slo = { ttft_ms: w.slo_ttft_ms, tpot_ms: w.slo_tpot_ms, e2el_ms: w.slo_e2el_ms };
  const cell = s.plan?.cells[0];
  const plan = s.plan?.controlled ? s.plan : null;
  const levels: [LoadMode, number][] = [
    ...w.concurrency.map((c): [LoadMode, number] => ["concurrency", c]),
    ...w.request_rate.map((r): [LoadMode, number] => ["rate", r]),
  ];
  const next = async (): Promise<PlannedRequest> =>
    plan && cell ? await plan.request(cell, s.ctx.nonce()) : {
      shape: { content: promptWithNonce(config.prompt, s.ctx.nonce()) },
      prompt_exact: false,
      prompt_target: null,
      gen_target: null,
    };
  const rows: Row[] = [];
  for (const [i, [mode, level]] of levels.entries()) {
    await control.checkpoint();
    emit({ type: "load_level", key: s.key, mode, level, figures: null });
    // Prompts of a counted level are built before it starts, so tokenizing is not part of the
    // load; a timed level builds each as it goes (its timing starts when the request is sent).
    const planned: PlannedRequest[] = [];
    for (let j = 0; w.duration_s === null && j < w.requests; j++) planned.push(await next());
    const bound = w.duration_s === null
      ? { requests: w.requests }
      : { requests: MAX_DURATION_REQUESTS, deadline: performance.now() + w.duration_s * 1000 };
    const send = async (j: number) => s.request((planned[j] ??= await next()).shape);
    const reqs = mode === "concurrency"
      ? await runConcurrency(send, level, bound, control.signal)
      : await runRate(send, level, bound, w.seed + i, control.signal, w.burstiness);
    const base = 1_000_000 + i * 100_000;
    reqs.forEach((r) => {
      const p = planned[r.index];
      store.addRun(s.resultId, {
        run_index: base + r.index,
        parallel: mode === "concurrency" ? level : 0,
        load_mode: mode,
        load_level: level,
        ...(p && p.prompt_target !== null ? { prompt_tokens_target: p.prompt_target } : {}),
        ...(p && p.gen_target !== null
          ? {
            gen_tokens_target: p.gen_target,
            stopped_early: r.metrics ? stoppedEarly(p.gen_target, r.metrics) : null,
          }
          : {}),
        ...(r.metrics ?? {
          status: "failed",
          error: r.error,
          total_ms: r.end - r.start,
          started_at_ms: performance.timeOrigin + r.start,
          ended_at_ms: performance.timeOrigin + r.end,
        }),
      });
    });
    const row = levelRow(mode, level, reqs, slo);
    const failed = row.failed as number;
    s.failedRequests += failed;
    if (failed > 0) s.warnings.push(`load ${mode} ${level}: ${failed} request(s) failed`);
    rows.push(row);
    for (
      const message of levelNotes(
        mode,
        level,
        row.max_in_flight as number,
        s.slots,
        w.duration_s === null ? w.requests : Infinity,
      )
    ) {
      s.warnings.push(message);
      emit({ type: "log", level: "warn", message });
    }
    emit({
      type: "load_level",
      key: s.key,
      mode,
      level,
      figures: {
        requests: row.requests as number,
        ok: row.ok as number,
        output_tokens_per_sec: row.output_tokens_per_sec as number | null,
        requests_per_sec: row.requests_per_sec as number | null,
        goodput_rps: row.goodput_rps as number | null,
        latency_ms_p99: row.latency_ms_p99 as number | null,
      },
    });
  }
  store.addLoadLevels(s.resultId, markKnee(rows));
  return rows.length;
}
