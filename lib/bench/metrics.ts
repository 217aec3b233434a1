/**
 * Per-run metrics (DECISIONS.md "Metrics per run"): client-measured and server-reported figures
 * side by side, and the per-model aggregates stored with a result.
 *
 * @module
 */
import type { ChatResult } from "../modelserver/mod.ts";
import { aggregateRuns, gapsOf, percentileColumns } from "../store/mod.ts";
import { chooseDecode, type DecodeChoice } from "./burst.ts";

/** The store columns of one measured run. */
export interface RunMetrics {
  tokens_in: number | null;
  tokens_out: number | null;
  ttft_ms: number | null;
  total_ms: number;
  /**
   * Decode speed: the tokens after the first ÷ the time from the first to the last event carrying
   * a token (see {@linkcode decodeSpeed}); the server's own figure instead when the stream's
   * strays from it by more than 25 % (a burst: see burst.ts), null when left out.
   */
  tokens_per_sec: number | null;
  /** The stream's own decode speed, whichever figure was kept. */
  client_tokens_per_sec: number | null;
  /** Where `tokens_per_sec` comes from (see burst.ts). */
  decode_source: DecodeChoice["decode_source"];
  /** End-to-end speed: output tokens ÷ total. */
  e2e_tokens_per_sec: number | null;
  /** Prefill speed: prompt tokens ÷ TTFT. */
  prefill_tokens_per_sec: number | null;
  server_ttft_ms: number | null;
  server_total_ms: number | null;
  server_tokens_per_sec: number | null;
  server_prompt_ms: number | null;
  server_predicted_ms: number | null;
  stop_reason: string | null;
  /** Time per output token: 1000 ÷ decode speed (ms). */
  tpot_ms: number | null;
  /** Inter-token latencies: the gaps between the events carrying tokens (JSON array, ms). */
  itl_json: string | null;
  /** When the request was sent and its answer ended (Unix epoch ms), where known. */
  started_at_ms: number | null;
  ended_at_ms: number | null;
}

const perSec = (count: number | null, ms: number | null): number | null =>
  count !== null && count > 0 && ms !== null && ms > 0 ? count / (ms / 1000) : null;

/**
 * Decode speed of one inference: the first token ends the prefill, so the decode phase produces
 * the other `tokens − 1` between the first and the last event carrying a token (what llama.cpp's
 * `predicted_per_second` measures on the server). The count is the server's where it reports one,
 * else the client's count of token events; the times are the client's, taken when the network
 * read that brought an event returned. Tokens read together with the first one (the client was
 * late) were made before that time, so they leave the count too. Empty deltas count as token
 * events, so a stream whose first tokens decode to no text still starts the clock at the first
 * token. Without the last event's time (a backend that does not report it) or with one token,
 * it falls back to tokens ÷ (total − TTFT).
 */
export function decodeSpeed(tokensOut: number | null, client: ChatResult["client"]): number | null {
  const first = client.ttft_ms;
  if (first === null) return null;
  const last = client.last_token_ms ?? null;
  const atFirst = Math.max(1, client.first_read_tokens ?? 1);
  if (tokensOut !== null && tokensOut > atFirst && last !== null && last > first) {
    return perSec(tokensOut - atFirst, last - first);
  }
  return perSec(tokensOut, client.total_ms - first);
}

/** The gaps between consecutive token events (ms), rounded to 0.01 ms. */
export function interTokenGaps(times: readonly number[] | undefined): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < (times?.length ?? 0); i++) {
    gaps.push(Math.round((times![i]! - times![i - 1]!) * 100) / 100);
  }
  return gaps;
}

/** Computes the metrics of one inference sent at `sentAtMs` (Unix epoch ms, when known). */
export function runMetrics(r: ChatResult, sentAtMs: number | null = null): RunMetrics {
  const tokensOut = r.stats.tokens_out > 0 ? r.stats.tokens_out : r.client.tokens_out;
  const tokensIn = r.stats.tokens_in > 0 ? r.stats.tokens_in : null;
  const ttft = r.client.ttft_ms;
  const total = r.client.total_ms;
  const gaps = interTokenGaps(r.client.token_times_ms);
  const choice = chooseDecode(decodeSpeed(tokensOut, r.client), r.stats.tokens_per_second, gaps);
  const decode = choice.tokens_per_sec;
  return {
    tokens_in: tokensIn,
    tokens_out: tokensOut,
    ttft_ms: ttft,
    total_ms: total,
    ...choice,
    e2e_tokens_per_sec: perSec(tokensOut, total),
    prefill_tokens_per_sec: perSec(tokensIn, ttft),
    server_ttft_ms: r.stats.time_to_first_token_ms,
    server_total_ms: r.stats.total_time_ms,
    server_tokens_per_sec: r.stats.tokens_per_second,
    server_prompt_ms: r.stats.prompt_ms ?? null,
    server_predicted_ms: r.stats.predicted_ms ?? null,
    stop_reason: r.stats.stop_reason ?? null,
    tpot_ms: decode === null ? null : 1000 / decode,
    itl_json: gaps.length ? JSON.stringify(gaps) : null,
    started_at_ms: sentAtMs,
    ended_at_ms: sentAtMs === null ? null : sentAtMs + total,
  };
}

export { aggregateRuns, gapsOf, percentileColumns };
