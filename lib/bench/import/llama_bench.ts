/**
 * llama-bench results (`llama-bench -o json`: an array of test objects; `-o jsonl`: one object a
 * line) as stored results. Each test (a prompt length `n_prompt`, an output length `n_gen`, a
 * filled context `n_depth`, threads, GPU layers, batch sizes, KV types, flash attention) is its
 * own identity under the backend `llama-bench`; each repetition of `samples_ns`/`samples_ts` is a
 * run: a `tg` test's speed is a decode speed (`tokens_per_sec`), a `pp` test's a prefill speed
 * (`prefill_tokens_per_sec`), a `pg` test's (both) an end-to-end speed.
 *
 * @module
 */
import { isPlainObject } from "../../shared/json_object.ts";
import { paramsText, quantizationOfFtype } from "../../modelserver/mod.ts";
import {
  aggregateRuns,
  type ImportedResult,
  paramsHash,
  type Row,
  type RunRecord,
} from "../../store/mod.ts";
import { recordHash, type RecordReader } from "./record.ts";

/** The backend of results imported from llama-bench. */
export const LLAMA_BENCH = "llama-bench";

/** Whether a JSON object looks like a llama-bench test. */
export function isLlamaBenchRecord(v: unknown): boolean {
  return isPlainObject(v) && "model_filename" in v && "n_prompt" in v && "n_gen" in v;
}

/** The settings of a test besides its lengths: part of its identity. */
const TOOL_KEYS = [
  "n_threads",
  "n_gpu_layers",
  "n_batch",
  "n_ubatch",
  "flash_attn",
  "type_k",
  "type_v",
  "backends",
  "split_mode",
  "cpu_mask",
  "no_kv_offload",
  "n_cpu_moe",
];

/** `models/Qwen2.5-7B-Instruct-Q4_K_M.gguf` → `Qwen2.5-7B-Instruct-Q4_K_M`. */
function stem(path: string): string {
  return path.split(/[\\/]/).at(-1)!.replace(/\.gguf$/i, "");
}

/** `qwen2 7B Q4_K - Medium` → architecture, size label and file type. */
function modelType(text: string | null) {
  const m = /^(\S+)\s+(\S+)\s+(.+)$/.exec(text ?? "");
  return m ? { arch: m[1]!, size: m[2]!, ftype: m[3]! } : null;
}

/** The figures of one repetition of a test. */
function runOf(i: number, tps: number, ns: number | null, pp: number, tg: number): RunRecord {
  const speed = tg > 0 && pp === 0
    ? "tokens_per_sec"
    : pp > 0 && tg === 0
    ? "prefill_tokens_per_sec"
    : "e2e_tokens_per_sec";
  const run: RunRecord = {
    run_index: i,
    status: "ok",
    tokens_in: pp,
    tokens_out: tg,
    [speed]: tps,
    total_ms: ns !== null ? ns / 1e6 : null,
    decode_source: "llama-bench",
  };
  if (speed === "tokens_per_sec") run.tpot_ms = 1000 / tps;
  return run;
}

/** One llama-bench test as a stored result. */
export function llamaBenchResult(r: RecordReader, fileName: string): ImportedResult {
  const filename = r.string("model_filename");
  const pp = r.count("n_prompt");
  const tg = r.count("n_gen");
  const depth = r.count("n_depth", 0);
  const avg = r.number("avg_ts");
  const samplesTs = r.numbers("samples_ts");
  const samplesNs = r.numbers("samples_ns");
  if (samplesTs && samplesNs && samplesNs.length !== samplesTs.length) {
    throw r.fail("'samples_ns' and 'samples_ts' differ in length");
  }
  const type = modelType(r.optionalString("model_type"));
  const name = stem(filename);
  const quant = /(?:^|[-_.])((?:I?Q\d\w*?)|BF16|F16|F32)$/i.exec(name)?.[1] ??
    quantizationOfFtype(type?.ftype) ?? null;
  const nParams = r.optionalNumber("model_n_params");
  // The test's settings as the tool wrote them (a type may change between versions:
  // flash_attn was a boolean, now -1/0/1).
  const tool: Record<string, unknown> = {};
  for (const k of TOOL_KEYS) {
    const v = r.record[k];
    if (["number", "string", "boolean"].includes(typeof v)) tool[k] = v;
  }
  const identity = {
    backend: LLAMA_BENCH,
    load: {},
    workload: {
      ...(pp > 0 ? { prompt_tokens: [pp] } : {}),
      ...(tg > 0 ? { gen_tokens: [tg] } : {}),
      ...(depth > 0 ? { kv_depth: [depth] } : {}),
    },
    tool,
  };
  const samples = samplesTs ?? [avg];
  const runs = samples.map((tps, i) => runOf(i, tps, samplesNs?.[i] ?? null, pp, tg));
  const size = r.optionalNumber("model_size");
  const aggregates: Row = {
    ...aggregateRuns(runs, size ? size / 1024 ** 3 : null, nParams ? nParams / 1e9 : null),
    runs_ok: runs.length,
    runs_failed: 0,
    server_version: r.optionalString("build_commit"),
  };
  const measured = Date.parse(r.optionalString("test_time") ?? "");
  return {
    import_hash: recordHash(LLAMA_BENCH, r.record),
    model: {
      model_key: name,
      model_name: name,
      quantization: quant?.toLowerCase() ?? null,
      architecture: type?.arch ?? null,
      params_size: nParams ? paramsText(nParams) : type?.size ?? null,
      size_bytes: size,
    },
    backend: LLAMA_BENCH,
    params_hash: paramsHash(identity),
    params: {
      ...identity,
      source: {
        tool: LLAMA_BENCH,
        file: fileName,
        build_commit: r.optionalString("build_commit"),
        cpu_info: r.optionalString("cpu_info"),
        gpu_info: r.optionalString("gpu_info"),
        avg_ts: avg,
        stddev_ts: r.optionalNumber("stddev_ts"),
      },
    },
    measured_at: Number.isFinite(measured) ? new Date(measured).toISOString() : null,
    status: "ok",
    num_runs: runs.length,
    runs,
    aggregates,
  };
}
