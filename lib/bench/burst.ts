/**
 * Which decode speed a run keeps. The client measures it from the stream (tokens after the first
 * ÷ the time between the first and the last token event); on a busy machine, or behind a proxy
 * that buffers (llama.cpp's router), the events can arrive in one burst and the stream's figure
 * then measures the network: 14–237× the server's own `predicted_per_second` was seen. A run whose
 * stream figure strays from the server's own by more than {@linkcode BURST_TOLERANCE} keeps the
 * server's figure (the stream's is stored beside it); without a server figure, a stream whose
 * tokens arrived in at most two network reads (however many tokens: fewer than two gaps between
 * token events are above zero) is left out of the mean — a server that sends several tokens per
 * chunk still streams in many reads, and is measured. Either way the run says so
 * (`decode_source`) and its result notes it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chooseDecode } from "./burst.ts";
 * assert.deepEqual(chooseDecode(156_234, 1_613, []), {
 *   tokens_per_sec: 1_613,
 *   client_tokens_per_sec: 156_234,
 *   decode_source: "server",
 * });
 * assert.equal(chooseDecode(1_650, 1_613, []).decode_source, "client");
 * assert.equal(chooseDecode(9_000, null, [0, 0, 0, 0, 0.5]).tokens_per_sec, null);
 * ```
 *
 * @module
 */

/** How far (as a fraction) the stream's decode speed may differ from the server's own figure. */
export const BURST_TOLERANCE = 0.25;

/** A stream with at least this many gaps can be judged a burst by its gaps alone. */
const MIN_GAPS = 4;

/** The decode speed a run keeps, and where it comes from. */
export interface DecodeChoice {
  /** The figure of the statistics (null: left out of the mean). */
  tokens_per_sec: number | null;
  /** The stream's own figure, kept beside it. */
  client_tokens_per_sec: number | null;
  /**
   * `client` (the stream agrees with the server, or the server gives none), `server` (a burst:
   * the server's figure is used), `left_out` (a burst with no server figure), null (no figure).
   */
  decode_source: "client" | "server" | "left_out" | null;
}

/** Whether a stream's token events arrived in at most two network reads. */
export function arrivedInBurst(gaps: readonly number[]): boolean {
  if (gaps.length < MIN_GAPS) return false;
  return gaps.filter((g) => g > 0).length < 2;
}

/** Chooses the decode speed of a run from the stream's figure, the server's and the gaps. */
export function chooseDecode(
  client: number | null,
  server: number | null,
  gaps: readonly number[],
): DecodeChoice {
  if (client === null) {
    return { tokens_per_sec: null, client_tokens_per_sec: null, decode_source: null };
  }
  if (server !== null && server > 0) {
    const off = Math.abs(client / server - 1) > BURST_TOLERANCE;
    return {
      tokens_per_sec: off ? server : client,
      client_tokens_per_sec: client,
      decode_source: off ? "server" : "client",
    };
  }
  const burst = arrivedInBurst(gaps);
  return {
    tokens_per_sec: burst ? null : client,
    client_tokens_per_sec: client,
    decode_source: burst ? "left_out" : "client",
  };
}

/** The note of a result some of whose runs' streams were bursts; null when none was. */
export function burstNote(runs: readonly { decode_source?: string | null }[]): string | null {
  const server = runs.filter((r) => r.decode_source === "server").length;
  const out = runs.filter((r) => r.decode_source === "left_out").length;
  const parts: string[] = [];
  if (server > 0) {
    parts.push(
      `${server} of ${runs.length} run(s) streamed a decode speed more than ` +
        `${BURST_TOLERANCE * 100}% off the server's own figure (tokens arrived in bursts): the ` +
        "server's figure is used for them",
    );
  }
  if (out > 0) {
    parts.push(
      `${out} of ${runs.length} run(s) streamed their tokens in one burst and the server gives ` +
        "no figure of its own: their decode speed is left out of the mean",
    );
  }
  return parts.length ? parts.join("; ") : null;
}
