/**
 * Load curves (`--concurrency`, `--request-rate`): for each level a number of requests (or as many
 * as `--duration` allows), either with N always in flight (a closed loop) or arriving at R per
 * second with seeded gamma gaps (`--burstiness`; 1 is a Poisson process: an open loop); per level
 * the aggregate output tokens/s, requests/s, goodput under the latency targets (`--slo-ttft`,
 * `--slo-tpot`, `--slo-e2el`) and the percentiles of request latency, TTFT, TPOT and ITL; and the
 * knee, the level after which more load no longer raises throughput.
 *
 * @module
 */
import { sleep } from "../clock.ts";
import { createRandom } from "../engine/mod.ts";
import { arrivalGaps } from "./distributions.ts";
import type { Row } from "../store/mod.ts";
import type { Measured } from "./measure.ts";
import { gapsOf, type RunMetrics, runMetrics } from "./metrics.ts";
import { quantile } from "../stats.ts";

/** The two ways of loading a server. */
export type LoadMode = "concurrency" | "rate";

/** The outcome of one request of a level. */
export interface LoadRequest {
  /** The order it was sent in (0-based). */
  index: number;
  /** Client time the request was sent and its stream ended (ms, performance.now()). */
  start: number;
  end: number;
  metrics: RunMetrics | null;
  error: string | null;
}

/** Latency targets (ms); null = no target. */
export interface Slo {
  ttft_ms: number | null;
  tpot_ms: number | null;
  /** End-to-end request latency. */
  e2el_ms?: number | null;
}

/** Whether a request meets every latency target given. */
export function meetsSlo(m: RunMetrics, slo: Slo): boolean {
  if (slo.ttft_ms !== null && (m.ttft_ms === null || m.ttft_ms > slo.ttft_ms)) return false;
  if (slo.tpot_ms !== null && (m.tpot_ms === null || m.tpot_ms > slo.tpot_ms)) return false;
  const e2el = slo.e2el_ms ?? null;
  if (e2el !== null && !(m.total_ms <= e2el)) return false;
  return true;
}

/** Whether any latency target is given. */
export function hasSlo(slo: Slo): boolean {
  return slo.ttft_ms !== null || slo.tpot_ms !== null || (slo.e2el_ms ?? null) !== null;
}

/** Seconds between arrivals of a Poisson process of `rate` per second: `−ln(U) ÷ rate`. */
export function poissonGaps(rate: number, n: number, seed: number): number[] {
  const random = createRandom(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(-Math.log(1 - random.next()) / rate);
  return out;
}

const sorted = (xs: (number | null)[]) =>
  xs.filter((v): v is number => typeof v === "number" && Number.isFinite(v)).sort((a, b) => a - b);

/**
 * The most requests that were in flight at once (sent, answer not ended), from their times.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { maxInFlight } from "./load_curve.ts";
 * assert.equal(maxInFlight([{ start: 0, end: 10 }, { start: 5, end: 15 }, { start: 10, end: 20 }]), 2);
 * ```
 */
export function maxInFlight(reqs: readonly { start: number; end: number }[]): number {
  // Ends before starts at the same instant: a request sent as another ends does not overlap it.
  const events = reqs.flatMap((r) => [[r.start, 1], [r.end, -1]] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, step] of events) most = Math.max(most, now += step);
  return most;
}

/** Events per second between the first and the last of `times` (ms); null with fewer than 2. */
function spacingRate(times: number[]): number | null {
  if (times.length < 2) return null;
  const span = Math.max(...times) - Math.min(...times);
  return span > 0 ? (times.length - 1) / (span / 1000) : null;
}

/** The store row of one level (`load_levels`, without the knee). */
export function levelRow(mode: LoadMode, level: number, reqs: LoadRequest[], slo: Slo): Row {
  const ok = reqs.filter((r) => r.metrics !== null).map((r) => r.metrics!);
  const first = Math.min(...reqs.map((r) => r.start));
  const last = Math.max(...reqs.map((r) => r.end));
  const durationMs = reqs.length ? Math.max(0, last - first) : 0;
  const seconds = durationMs / 1000;
  const tokens = ok.reduce((a, m) => a + (m.tokens_out ?? 0), 0);
  const latency = sorted(ok.map((m) => m.total_ms));
  const ttft = sorted(ok.map((m) => m.ttft_ms));
  const tpot = sorted(ok.map((m) => m.tpot_ms));
  const itl = sorted(ok.flatMap((m) => gapsOf(m)));
  const sloSet = hasSlo(slo);
  const met = ok.filter((m) => meetsSlo(m, slo)).length;
  return {
    mode,
    level,
    requests: reqs.length,
    max_in_flight: maxInFlight(reqs),
    // The rate requests were sent at and the rate answers completed at: equal while the server
    // keeps up (neither depends on the latency, unlike requests ÷ duration).
    offered_rps: spacingRate(reqs.map((r) => r.start)),
    completed_rps: spacingRate(reqs.filter((r) => r.metrics !== null).map((r) => r.end)),
    ok: ok.length,
    failed: reqs.length - ok.length,
    duration_ms: durationMs,
    output_tokens_per_sec: seconds > 0 ? tokens / seconds : null,
    requests_per_sec: seconds > 0 ? ok.length / seconds : null,
    goodput_rps: sloSet && seconds > 0 ? met / seconds : null,
    slo_met: sloSet ? met : null,
    latency_ms_p50: quantile(latency, 0.5),
    latency_ms_p90: quantile(latency, 0.9),
    latency_ms_p99: quantile(latency, 0.99),
    ttft_ms_p50: quantile(ttft, 0.5),
    ttft_ms_p90: quantile(ttft, 0.9),
    ttft_ms_p99: quantile(ttft, 0.99),
    tpot_ms_p50: quantile(tpot, 0.5),
    tpot_ms_p90: quantile(tpot, 0.9),
    tpot_ms_p99: quantile(tpot, 0.99),
    itl_ms_p50: quantile(itl, 0.5),
    itl_ms_p99: quantile(itl, 0.99),
    knee: 0,
  };
}

/** Throughput that the next level must beat by this factor to count as still growing. */
export const KNEE_GAIN = 1.1;

/** A rate level keeps up while answers complete at least this fraction as fast as sent. */
export const KEEP_UP = 0.9;

/** Whether a rate level's answers completed about as fast as its requests were sent. */
export function keepsUp(row: Row): boolean {
  const offered = row.offered_rps as number | null;
  const completed = row.completed_rps as number | null;
  return offered !== null && completed !== null && completed >= offered * KEEP_UP;
}

/**
 * Marks the knee of each mode's curve. Concurrency: the first level (ascending) whose next level
 * raises the output tokens/s by less than 10 % (or lowers it). Rate: the last rate the server
 * keeps up with before the first it does not — achieved against offered load, as an open loop
 * asks (answers completing slower than requests are sent means a queue that only grows). A curve
 * that grows (or keeps up) to its last level, or a rate curve that never keeps up, has no knee
 * within the levels tested.
 */
export function markKnee(rows: Row[]): Row[] {
  const curveOf = (mode: string) =>
    rows.filter((r) => r.mode === mode).sort((a, b) => (a.level as number) - (b.level as number));
  const concurrency = curveOf("concurrency");
  for (let i = 0; i + 1 < concurrency.length; i++) {
    const here = concurrency[i]!.output_tokens_per_sec as number | null;
    const next = concurrency[i + 1]!.output_tokens_per_sec as number | null;
    if (here !== null && (next === null || next < here * KNEE_GAIN)) {
      concurrency[i]!.knee = 1;
      break;
    }
  }
  const rate = curveOf("rate");
  for (let i = 0; i + 1 < rate.length; i++) {
    if (keepsUp(rate[i]!) && !keepsUp(rate[i + 1]!)) {
      rate[i]!.knee = 1;
      break;
    }
  }
  return rows;
}

/** Sends request `index` of a level; the caller's measure function (nonce, prompt, reload retry). */
export type SendRequest = (index: number) => Promise<Measured>;

/**
 * Sends one request and times it. Its start is when the request itself went out (the measure's
 * `sent_at_ms`), so building its prompt first is not part of the load's timing.
 */
async function timed(send: SendRequest, index: number): Promise<LoadRequest> {
  const called = performance.now();
  try {
    const m = await send(index);
    return {
      index,
      start: Math.max(called, m.sent_at_ms - performance.timeOrigin),
      end: performance.now(),
      metrics: runMetrics(m.result, m.sent_at_ms),
      error: null,
    };
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    return {
      index,
      start: called,
      end: performance.now(),
      metrics: null,
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

/** How a level ends: after `requests` requests, or at `deadline` (performance.now() ms) first. */
export interface LevelBound {
  requests: number;
  deadline?: number | null;
}

/** Whether a level may send another request. */
function open(bound: LevelBound, sent: number): boolean {
  const deadline = bound.deadline ?? null;
  return sent < bound.requests && (deadline === null || performance.now() < deadline);
}

/**
 * Requests with `concurrency` in flight at every moment (a closed loop) until the bound: no
 * request is sent after the deadline, and those in flight are waited for.
 */
export async function runConcurrency(
  send: SendRequest,
  concurrency: number,
  bound: number | LevelBound,
  signal: AbortSignal,
): Promise<LoadRequest[]> {
  const b = typeof bound === "number" ? { requests: bound } : bound;
  const out: LoadRequest[] = [];
  let next = 0;
  const worker = async () => {
    while (open(b, next)) {
      signal.throwIfAborted();
      out.push(await timed(send, next++));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, b.requests) }, worker));
  return out.sort((x, y) => x.index - y.index);
}

/** Most requests of an open loop in flight at once (a server that stops answering). */
export const MAX_IN_FLIGHT = 512;

/**
 * Requests arriving at `rate` per second (an open loop) until the bound: gamma inter-arrival
 * times of shape `burstiness` (1: a Poisson process), seeded. No arrival is sent at or after the
 * deadline; those in flight are waited for.
 */
export async function runRate(
  send: SendRequest,
  rate: number,
  bound: number | LevelBound,
  seed: number,
  signal: AbortSignal,
  burstiness = 1,
): Promise<LoadRequest[]> {
  const b = typeof bound === "number" ? { requests: bound } : bound;
  const deadline = b.deadline ?? null;
  const nextGap = arrivalGaps(rate, burstiness, seed);
  const t0 = performance.now();
  const pending: Promise<LoadRequest>[] = [];
  let at = 0;
  let inFlight = 0;
  for (let i = 0; i < b.requests; i++) {
    at += nextGap() * 1000;
    if (deadline !== null && t0 + at >= deadline) break;
    const wait = t0 + at - performance.now();
    if (wait > 0) await sleep(wait, signal);
    while (inFlight >= MAX_IN_FLIGHT) await sleep(5, signal);
    signal.throwIfAborted();
    if (deadline !== null && performance.now() >= deadline) break;
    inFlight++;
    pending.push(timed(send, i).finally(() => inFlight--));
  }
  return await Promise.all(pending);
}
