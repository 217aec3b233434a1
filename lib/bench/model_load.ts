/**
 * The load curve of a loaded model: every `--concurrency` level, then every `--request-rate`, each
 * with `--requests` requests (the first grid cell's prompt and output length); each request is
 * stored as a run (`load_mode`, `load_level`), each level as a `load_levels` row with the knee.
 *
 * @module
 */
import { workloadOf } from "./options.ts";
import type { Row } from "../store/mod.ts";
import { levelRow, type LoadMode, markKnee, runConcurrency, runRate } from "./load_curve.ts";
import { promptWithNonce, type RequestShape } from "./measure.ts";
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

/** Runs the load curve of `s`; returns the number of levels. */
export async function runLoadCurve(s: ModelSession): Promise<number> {
  const { options, store, emit, control, config } = s.ctx;
  const w = workloadOf(options);
  const slo = { ttft_ms: w.slo_ttft_ms, tpot_ms: w.slo_tpot_ms };
  const cell = s.plan?.cells[0];
  const controlled = w.prompt_tokens.length > 0 || w.gen_tokens.length > 0;
  const levels: [LoadMode, number][] = [
    ...w.concurrency.map((c): [LoadMode, number] => ["concurrency", c]),
    ...w.request_rate.map((r): [LoadMode, number] => ["rate", r]),
  ];
  const rows: Row[] = [];
  for (const [i, [mode, level]] of levels.entries()) {
    await control.checkpoint();
    emit({ type: "load_level", key: s.key, mode, level, figures: null });
    // Prompts are built before the level starts, so tokenizing is not part of the load.
    const shapes: RequestShape[] = [];
    for (let j = 0; j < w.requests; j++) {
      shapes.push(
        controlled && cell && s.plan
          ? (await s.plan.request(cell, s.ctx.nonce())).shape
          : { content: promptWithNonce(config.prompt, s.ctx.nonce()) },
      );
    }
    let taken = 0;
    const send = () => s.request(shapes[taken++]!);
    const reqs = mode === "concurrency"
      ? await runConcurrency(send, level, w.requests, control.signal)
      : await runRate(send, level, w.requests, w.seed + i, control.signal);
    const base = 1_000_000 + i * 100_000;
    reqs.forEach((r, j) =>
      store.addRun(s.resultId, {
        run_index: base + j,
        parallel: mode === "concurrency" ? level : 0,
        load_mode: mode,
        load_level: level,
        ...(r.metrics ?? {
          status: "failed",
          error: r.error,
          total_ms: r.end - r.start,
          started_at_ms: performance.timeOrigin + r.start,
          ended_at_ms: performance.timeOrigin + r.end,
        }),
      })
    );
    const row = levelRow(mode, level, reqs, slo);
    const failed = row.failed as number;
    s.failedRequests += failed;
    if (failed > 0) s.warnings.push(`load ${mode} ${level}: ${failed} request(s) failed`);
    rows.push(row);
    for (
      const message of levelNotes(mode, level, row.max_in_flight as number, s.slots, w.requests)
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
