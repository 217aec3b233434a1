/**
 * `--save-requests FILE`: every request of a benchmark as JSON Lines, one request a line, as
 * vLLM's detailed results keep them (`--save-detailed`: input and output lengths, TTFTs, ITLs,
 * errors), here one object per request so a script can stream it and rebuild what was in flight:
 *
 * `{"model_key", "backend", "result_id", "phase": "sequential"|"parallel"|"load", "load_mode",
 * "load_level", "run_index", "status", "error", "start_ms", "end_ms", "started_at", "ttft_ms",
 * "total_ms", "tokens_in", "tokens_out", "tokens_per_sec", "server_tokens_per_sec",
 * "prompt_tokens_target", "output_tokens_target", "stop_reason", "stopped_early", "itl_ms": [...]}`
 * — times in Unix epoch milliseconds (`started_at` the same as ISO 8601); `stopped_early` is true
 * when a request with an output target ended before it on its own, null without a target.
 *
 * @module
 */
import { writeNamedOutput } from "../fs.ts";
import type { ResultsStore, Row } from "../store/mod.ts";
import { gapsOf } from "./metrics.ts";

const num = (v: unknown): number | null => (typeof v === "number" ? v : null);

/** A load level's request has its mode; a parallel round's request runs with others. */
function phaseOf(run: Row): "sequential" | "parallel" | "load" {
  if (typeof run.load_mode === "string") return "load";
  return Number(run.parallel ?? 1) > 1 ? "parallel" : "sequential";
}

/** One request as its JSON Lines object. */
export function requestRecord(result: Row, run: Row): Record<string, unknown> {
  const start = num(run.started_at_ms);
  return {
    model_key: result.model_key,
    backend: result.backend,
    result_id: result.id,
    phase: phaseOf(run),
    load_mode: run.load_mode ?? null,
    load_level: num(run.load_level),
    run_index: run.run_index,
    status: run.status,
    error: run.error ?? null,
    start_ms: start,
    end_ms: num(run.ended_at_ms),
    started_at: start === null ? null : new Date(start).toISOString(),
    ttft_ms: num(run.ttft_ms),
    total_ms: num(run.total_ms),
    tokens_in: num(run.tokens_in),
    tokens_out: num(run.tokens_out),
    tokens_per_sec: num(run.tokens_per_sec),
    server_tokens_per_sec: num(run.server_tokens_per_sec),
    prompt_tokens_target: num(run.prompt_tokens_target),
    output_tokens_target: num(run.gen_tokens_target),
    stop_reason: run.stop_reason ?? null,
    stopped_early: run.stopped_early === null || run.stopped_early === undefined
      ? null
      : run.stopped_early === 1,
    itl_ms: gapsOf(run),
  };
}

/** The JSON Lines of every request of the given results, in the order they were sent. */
export function requestLines(store: ResultsStore, resultIds: readonly number[]): string[] {
  const wanted = new Set(resultIds);
  const results = store.allResults().filter((r) => wanted.has(r.id));
  const records = results.flatMap((r) =>
    store.runsOf(r.id).map((run) => requestRecord(r as unknown as Row, run))
  );
  records.sort((a, b) => (num(a.start_ms) ?? Infinity) - (num(b.start_ms) ?? Infinity));
  return records.map((r) => JSON.stringify(r));
}

/** Writes the file (atomically); returns the number of requests written. */
export async function saveRequests(
  path: string,
  store: ResultsStore,
  resultIds: readonly number[],
): Promise<number> {
  const lines = requestLines(store, resultIds);
  const text = lines.map((l) => l + "\n").join("");
  await writeNamedOutput(path, text, "the requests", "--save-requests");
  return lines.length;
}
