/**
 * A results store filled as lib/bench fills it (begin, one row per run, finish with the
 * aggregates), for report tests and sample reports.
 *
 * @module
 */
import { appliedParams } from "../../../lib/bench/applied.ts";
import { aggregateRuns, type RunMetrics } from "../../../lib/bench/metrics.ts";
import { builtInDefaults } from "../../../lib/config/mod.ts";
import type { RunOptions } from "../../../lib/bench/options.ts";
import { ResultsStore, type Row } from "../../../lib/store/mod.ts";

/** One model variant of the fixture. */
export interface FixtureModel {
  key: string;
  arch: string;
  params: string;
  sizeGiB: number;
  vision?: boolean;
  tools?: boolean;
  /** Decode speeds of the measured runs (tokens/s). */
  speeds: number[];
  /** Times to first token of the measured runs (ms). */
  ttfts: number[];
  vramMb?: number;
  hardware?: boolean;
  /** Parallel rounds (`--n-parallel`): streams, each round's total tokens/s, request latencies. */
  parallel?: { n: number; totals: number[]; latencies: number[] };
}

/** The default fixture: four variants, one with profiling, one with a failed run. */
export const FIXTURE_MODELS: FixtureModel[] = [
  {
    key: "qwen/qwen3-4b@q4_k_m",
    arch: "qwen3",
    params: "4B",
    sizeGiB: 2.5,
    tools: true,
    speeds: [52.1, 50.3, 51.7],
    ttfts: [180, 175, 190],
    vramMb: 3900,
    hardware: true,
  },
  {
    key: "qwen/qwen3-4b@q8_0",
    arch: "qwen3",
    params: "4B",
    sizeGiB: 4.3,
    tools: true,
    speeds: [38.2, 37.5, 39],
    ttfts: [210, 220, 205],
    vramMb: 5600,
  },
  {
    key: "google/gemma-3-12b@q4_k_m",
    arch: "gemma3",
    params: "12B",
    sizeGiB: 7.3,
    vision: true,
    speeds: [21.4, 20.9, 22],
    ttfts: [420, 440, 410],
    vramMb: 9100,
  },
  {
    key: "meta/llama-3.2-1b@q6_k",
    arch: "llama",
    params: "1B",
    sizeGiB: 1.1,
    speeds: [95.5, 97.25],
    ttfts: [60, 64],
  },
];

/** The prompt of the fixture: a comma, quotes and a line break test CSV quoting. */
export const FIXTURE_PROMPT = 'Say "hello, world"\nthen stop.';

/** The measured parameters stored with the fixture's results (a CLI override of temperature). */
export const FIXTURE_PARAMS = {
  prompt: FIXTURE_PROMPT,
  context_length: 4096,
  inference: {
    temperature: 0.35,
    top_k_sampling: 40,
    top_p_sampling: 0.9,
    min_p_sampling: 0.05,
    repeat_penalty: 1.2,
    max_tokens: 128,
  },
  load: { n_gpu_layers: -1, n_batch: 512, flash_attention: true, kv_cache_quant: null },
  backend: "rest",
  n_parallel: 1,
  unified_kv_cache: false,
};

function run(speed: number, ttft: number): RunMetrics {
  const out = 128;
  const total = ttft + out / speed * 1000;
  return {
    tokens_in: 24,
    tokens_out: out,
    ttft_ms: ttft,
    total_ms: total,
    tokens_per_sec: speed,
    e2e_tokens_per_sec: out / (total / 1000),
    prefill_tokens_per_sec: 24 / (ttft / 1000),
    server_ttft_ms: ttft - 5,
    server_total_ms: total - 5,
    server_tokens_per_sec: speed * 1.01,
    server_prompt_ms: ttft - 10,
    server_predicted_ms: total - ttft,
    stop_reason: "length",
    tpot_ms: 1000 / speed,
    // Gaps around 1000/speed ms with one slow token: a tail for the percentiles.
    itl_json: JSON.stringify(
      Array.from({ length: out - 1 }, (_, i) => (i === 60 ? 5 : 1) * 1000 / speed),
    ),
    started_at_ms: null,
    ended_at_ms: null,
    client_tokens_per_sec: speed,
    decode_source: "client",
  };
}

/** Fills `store` with the models; returns the stored result ids. */
export function fillStore(
  store: ResultsStore,
  models: FixtureModel[] = FIXTURE_MODELS,
  paramsHash = "fixture0hash0001",
): number[] {
  return models.map((m) => {
    const id = store.beginResult({
      model: {
        model_key: m.key,
        model_name: m.key.replace(/@.*$/, ""),
        quantization: m.key.split("@")[1] ?? null,
        architecture: m.arch,
        params_size: m.params,
        size_bytes: Math.round(m.sizeGiB * 1024 ** 3),
        max_context_length: 32768,
        format: "gguf",
        has_vision: m.vision ?? false,
        has_tools: m.tools ?? false,
      },
      params_hash: paramsHash,
      backend: "rest",
      params: FIXTURE_PARAMS,
      prompt: FIXTURE_PROMPT,
      context_length: 4096,
      num_runs: 3,
      n_parallel: m.parallel?.n ?? 1,
    });
    const runs = m.speeds.map((s, i) => run(s, m.ttfts[i]!));
    runs.forEach((r, i) => store.addRun(id, { run_index: i, ...r }));
    // Parallel requests are stored as runs from index 1000, as lib/bench stores them.
    m.parallel?.latencies.forEach((ms, i) =>
      store.addRun(id, { run_index: 1000 + i, parallel: m.parallel!.n, total_ms: ms })
    );
    const latencies = [...(m.parallel?.latencies ?? [])].sort((a, b) => a - b);
    if (m.speeds.length < 3) {
      store.addRun(id, { run_index: 2, status: "failed", error: "Model unloaded", total_ms: 0 });
    }
    const params = Number(m.params.replace("B", ""));
    const hardware: Row = m.hardware
      ? {
        temp_c_min: 41,
        temp_c_max: 67,
        temp_c_mean: 58.5,
        power_w_min: 35,
        power_w_max: 141.5,
        power_w_mean: 120.25,
        gpu_vram_gb_min: 3.6,
        gpu_vram_gb_max: 3.9,
        gpu_vram_gb_mean: 3.8,
        cpu_percent_min: 4,
        cpu_percent_max: 22,
        cpu_percent_mean: 11,
        ram_gb_min: 9.5,
        ram_gb_max: 9.9,
        ram_gb_mean: 9.7,
      }
      : {};
    store.finishResult(id, {
      status: m.speeds.length < 3 ? "partial" : "ok",
      aggregates: {
        // What an OpenAI-compatible server is asked and cannot confirm: long notes included.
        applied_json: JSON.stringify(appliedParams({
          config: builtInDefaults(),
          backend: "openai",
          n_parallel: m.parallel?.n ?? 1,
          unified_kv_cache: true,
          limits: { max_temp: 80, max_power: null, temp_active: false, power_active: false },
        })),
        ...aggregateRuns(runs, m.sizeGiB, params),
        ...hardware,
        vram_mb: m.vramMb ?? null,
        ...(m.parallel
          ? {
            parallel_tokens_per_sec: m.parallel.totals.reduce((a, b) => a + b, 0) /
              m.parallel.totals.length,
            parallel_latency_ms_mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
            parallel_latency_ms_p95: latencies.at(-1)!,
          }
          : {}),
        warmup_ms: 900,
        throttle_wait_s: 0,
        runs_ok: runs.length,
        runs_failed: m.speeds.length < 3 ? 1 : 0,
        app_version: "0.1.0",
        server_version: "0.4.1",
        gpu_type: m.hardware ? "NVIDIA GeForce RTX 4070" : null,
        warnings_json: m.speeds.length < 3 ? JSON.stringify(["1 run failed"]) : null,
      },
    });
    return id;
  });
}

/** An in-memory store with the default fixture and a fixed clock. */
export function fixtureStore(models: FixtureModel[] = FIXTURE_MODELS): ResultsStore {
  let t = Date.parse("2026-03-01T10:00:00Z");
  const store = ResultsStore.open(":memory:", { now: () => new Date(t += 1000) });
  fillStore(store, models);
  return store;
}

/** Run options as the command line builds them (defaults, with overrides). */
export function runOptions(overrides: Partial<RunOptions> = {}): RunOptions {
  return {
    action: "benchmark",
    preset: null,
    limit: null,
    dev_mode: false,
    filters: {
      only_vision: false,
      only_tools: false,
      quants: [],
      arch: [],
      params: [],
      min_context: null,
      max_size: null,
      include_models: null,
      exclude_models: null,
    },
    retest: false,
    export_cache: null,
    store_copy_to: null,
    enable_profiling: false,
    max_temp: null,
    max_power: null,
    disable_gtt: false,
    n_parallel: 4,
    unified_kv_cache: false,
    compare_with: null,
    rank_by: "speed",
    debug: false,
    ...overrides,
  };
}
