/**
 * `vllm bench serve --save-result` JSON (and the older `benchmark_serving.py`'s) as a stored
 * result under the backend `vllm-bench`: its traffic (request rate, burstiness, most requests in
 * flight, prompts) is the identity; with `--save-detailed` each request is a run (prompt and
 * output tokens, TTFT, inter-token gaps; a request with an error failed), else the file's
 * summary statistics are the result's aggregates. vLLM stores TTFTs and gaps in seconds.
 *
 * @module
 */
import {
  aggregateRuns,
  type ImportedResult,
  paramsHash,
  type Row,
  type RunRecord,
} from "../../store/mod.ts";
import { isPlainObject } from "../../shared/json_object.ts";
import { recordHash, RecordReader } from "./record.ts";

/** The backend of results imported from `vllm bench serve`. */
export const VLLM_BENCH = "vllm-bench";

/** Whether a JSON object looks like a `vllm bench serve` result. */
export function isVllmRecord(v: unknown): boolean {
  return isPlainObject(v) && "model_id" in v && "completed" in v &&
    ("mean_ttft_ms" in v || "ttfts" in v);
}

/** `20250424-115850` (vLLM's `date`) → ISO 8601; null when unreadable. */
function dateOf(text: string | null): string | null {
  const m = /^(\d{4})(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)$/.exec(text ?? "");
  if (!m) return null;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The per-request runs of a detailed result, or null when it has no per-request lists. */
function requestRuns(r: RecordReader): RunRecord[] | null {
  const ttfts = r.numbers("ttfts");
  if (ttfts === null) return null;
  const inputs = r.numbers("input_lens") ?? [];
  const outputs = r.numbers("output_lens") ?? [];
  const itls = r.record.itls;
  const errors = Array.isArray(r.record.errors) ? r.record.errors : [];
  if (!Array.isArray(itls) || itls.length !== ttfts.length) {
    throw r.fail("'itls' is not a list with one list of gaps per request of 'ttfts'");
  }
  return ttfts.map((ttft, i) => {
    const gaps = itls[i];
    if (!Array.isArray(gaps) || gaps.some((g) => typeof g !== "number")) {
      throw r.fail(`'itls' entry ${i + 1} is not a list of numbers`);
    }
    const gapsMs = (gaps as number[]).map((g) => g * 1000);
    const error = typeof errors[i] === "string" && errors[i] ? String(errors[i]) : null;
    const out = outputs[i] ?? null;
    const decodeMs = gapsMs.reduce((a, b) => a + b, 0);
    const tpot = out !== null && out > 1 && decodeMs > 0 ? decodeMs / (out - 1) : null;
    return {
      run_index: i,
      status: error ? "failed" : "ok",
      error,
      tokens_in: inputs[i] ?? null,
      tokens_out: out,
      ttft_ms: error ? null : ttft * 1000,
      total_ms: error ? null : ttft * 1000 + decodeMs,
      tpot_ms: error ? null : tpot,
      tokens_per_sec: error || tpot === null ? null : 1000 / tpot,
      itl_json: error ? null : JSON.stringify(gapsMs),
      decode_source: "vllm-bench",
    };
  });
}

/** The aggregates of a result saved without per-request lists: the file's own statistics. */
function summaryAggregates(r: RecordReader): Row {
  const out: Row = {};
  const metrics = [["ttft", "ttft_ms"], ["tpot", "tpot_ms"], ["itl", "itl_ms"], [
    "e2el",
    "total_ms",
  ]];
  for (const [vllm, ours] of metrics) {
    out[`${ours}_mean`] = r.optionalNumber(`mean_${vllm}_ms`);
    out[`${ours}_median`] = r.optionalNumber(`median_${vllm}_ms`);
    out[`${ours}_std`] = r.optionalNumber(`std_${vllm}_ms`);
    out[`${ours}_p90`] = r.optionalNumber(`p90_${vllm}_ms`);
    out[`${ours}_p99`] = r.optionalNumber(`p99_${vllm}_ms`);
  }
  const tpot = out.tpot_ms_mean;
  out.tokens_per_sec_mean = typeof tpot === "number" && tpot > 0 ? 1000 / tpot : null;
  return out;
}

/** One `vllm bench serve` result file as a stored result. */
export function vllmResult(r: RecordReader, file: string): ImportedResult {
  const model = r.string("model_id");
  const prompts = r.count("num_prompts");
  const completed = r.count("completed");
  const rateRaw = r.record.request_rate;
  const rate = rateRaw === "inf" || rateRaw === undefined || rateRaw === null
    ? "inf"
    : r.number("request_rate");
  const concurrency = r.optionalNumber("max_concurrency");
  const workload: Record<string, unknown> = {
    requests: prompts,
    ...(rate !== "inf" ? { request_rate: [rate] } : {}),
    ...(concurrency !== null ? { concurrency: [concurrency] } : {}),
    ...(rate !== "inf" ? { burstiness: r.optionalNumber("burstiness") ?? 1 } : {}),
  };
  const tool: Record<string, unknown> = {
    endpoint_type: r.optionalString("endpoint_type") ?? r.optionalString("backend"),
  };
  for (const k of ["dataset_name", "dataset_path", "label"]) {
    const v = r.optionalString(k);
    if (v !== null) tool[k] = v;
  }
  const identity = { backend: VLLM_BENCH, load: {}, workload, tool };
  const runs = requestRuns(r) ?? [];
  const ok = runs.filter((x) => x.status === "ok");
  const aggregates: Row = runs.length ? aggregateRuns(ok, null, null) : summaryAggregates(r);
  Object.assign(aggregates, {
    runs_ok: runs.length ? ok.length : completed,
    runs_failed: runs.length ? runs.length - ok.length : Math.max(0, prompts - completed),
    parallel_tokens_per_sec: r.optionalNumber("output_throughput"),
  });
  const failed = Number(aggregates.runs_failed);
  return {
    import_hash: recordHash(VLLM_BENCH, r.record),
    model: { model_key: model, model_name: model, quantization: null },
    backend: VLLM_BENCH,
    params_hash: paramsHash(identity),
    params: {
      ...identity,
      source: {
        tool: VLLM_BENCH,
        file,
        duration_s: r.optionalNumber("duration"),
        request_throughput: r.optionalNumber("request_throughput"),
        output_throughput: r.optionalNumber("output_throughput"),
        total_input_tokens: r.optionalNumber("total_input_tokens"),
        total_output_tokens: r.optionalNumber("total_output_tokens"),
      },
    },
    measured_at: dateOf(r.optionalString("date")),
    status: completed === 0 ? "failed" : failed > 0 ? "partial" : "ok",
    error: completed === 0 ? "vLLM completed no request" : null,
    num_runs: runs.length || prompts,
    n_parallel: concurrency,
    runs,
    aggregates,
  };
}
