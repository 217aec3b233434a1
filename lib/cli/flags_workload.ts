/**
 * Arguments of controlled workloads and load curves (our additions): exact prompt and output
 * lengths, concurrency and request-rate sweeps with latency targets, and the machine-readable
 * outputs (`--json`, `--list-models`).
 *
 * @module
 */
import type { FlagSpec } from "./flags.ts";

const f = (spec: FlagSpec): FlagSpec => spec;

/** Workload, Load curve and output arguments. */
export const WORKLOAD_FLAGS: readonly FlagSpec[] = [
  f({
    long: "prompt-tokens",
    key: "prompt_tokens",
    kind: "ints",
    min: 1,
    category: "Workload",
    arg: "n[,n…]",
    description:
      "prompt of exactly n tokens (tokenised by the server where it can, else calibrated); several values make a grid",
  }),
  f({
    long: "gen-tokens",
    key: "gen_tokens",
    kind: "ints",
    min: 1,
    category: "Workload",
    arg: "n[,n…]",
    description:
      "generate exactly n tokens where the server can force it (llama.cpp ignore_eos), else at most n; several values make a grid",
  }),
  f({
    long: "kv-depth",
    key: "kv_depth",
    kind: "ints",
    min: 0,
    max: 1_048_576,
    category: "Workload",
    arg: "n[,n…]",
    description:
      "fill n context tokens before each request's prompt, then measure prefill and decode after them (llama-bench -d); several values make a grid, 0 = none",
  }),
  f({
    long: "shared-prefix-tokens",
    key: "shared_prefix_tokens",
    kind: "int",
    min: 0,
    max: 1_048_576,
    category: "Workload",
    arg: "n",
    description:
      "give every request the same first n tokens (the server's prompt cache may serve them) and report TTFT cold (first request) and warm (the rest); 0 = none",
  }),
  f({
    long: "dataset",
    key: "dataset",
    kind: "string",
    category: "Workload",
    arg: "path",
    description:
      "requests from a dataset: ShareGPT JSON (first human turn = prompt, the reply's length = output) or JSON Lines of {prompt, output_tokens}",
  }),
  f({
    long: "dataset-sample",
    key: "dataset_sample",
    kind: "int",
    min: 1,
    max: 1_000_000,
    category: "Workload",
    arg: "n",
    description: "pick n requests of the dataset (a shuffle seeded by --seed); default all",
  }),
  f({
    long: "prompt-tokens-stddev",
    key: "prompt_tokens_stddev",
    kind: "float",
    min: 0,
    category: "Workload",
    arg: "n",
    description: "draw each prompt length from a normal around --prompt-tokens (clipped at 1)",
  }),
  f({
    long: "gen-tokens-stddev",
    key: "gen_tokens_stddev",
    kind: "float",
    min: 0,
    category: "Workload",
    arg: "n",
    description: "draw each output length from a normal around --gen-tokens (clipped at 1)",
  }),
  f({
    long: "range-ratio",
    key: "range_ratio",
    kind: "float",
    min: 0,
    max: 0.99,
    category: "Workload",
    arg: "r",
    description:
      "draw prompt and output lengths uniformly in [target·(1−r), target·(1+r)] (vLLM's random dataset)",
  }),
  f({
    long: "concurrency",
    key: "concurrency",
    kind: "ints",
    min: 1,
    category: "Workload",
    arg: "n[,n…]",
    description: "load curve: keep n requests in flight, for each level (REST/OpenAI)",
  }),
  f({
    long: "request-rate",
    key: "request_rate",
    kind: "floats",
    min: 0,
    exclusiveMin: true,
    category: "Workload",
    arg: "r[,r…]",
    description:
      "load curve: r requests per second, Poisson (or --burstiness) arrivals, seeded, for each rate",
  }),
  f({
    long: "burstiness",
    key: "burstiness",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Workload",
    arg: "k",
    fallback: 1,
    description:
      "gamma inter-arrival times of shape k for --request-rate (1: Poisson; below 1 burstier, above steadier)",
  }),
  f({
    long: "duration",
    key: "duration",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    max: 86_400,
    category: "Workload",
    arg: "seconds",
    description: "each load level sends requests for this long instead of --requests",
  }),
  f({
    long: "warmup-requests",
    key: "warmup_requests",
    kind: "int",
    min: 0,
    max: 1_000,
    category: "Workload",
    arg: "n",
    fallback: 1,
    description: "requests sent and discarded before measuring each model",
  }),
  f({
    long: "requests",
    key: "requests",
    kind: "int",
    min: 1,
    max: 100_000,
    category: "Workload",
    arg: "n",
    fallback: 16,
    description: "requests per load level",
  }),
  f({
    long: "seed",
    key: "seed",
    kind: "int",
    min: 0,
    max: 4_294_967_295,
    category: "Workload",
    arg: "n",
    fallback: 42,
    description: "seed of the arrivals, the length draws and the dataset sample",
  }),
  f({
    long: "slo-ttft",
    key: "slo_ttft",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Workload",
    arg: "ms",
    description: "goodput target: time to first token at most this",
  }),
  f({
    long: "slo-tpot",
    key: "slo_tpot",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Workload",
    arg: "ms",
    description: "goodput target: time per output token at most this",
  }),
  f({
    long: "slo-e2el",
    key: "slo_e2el",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Workload",
    arg: "ms",
    description: "goodput target: end-to-end request latency at most this",
  }),
];

/** Output arguments (our additions), shown under "Other". */
export const OUTPUT_FLAGS: readonly FlagSpec[] = [
  f({
    long: "list-models",
    key: "list_models",
    kind: "bool",
    category: "Other",
    description:
      "list what would be benchmarked after the filters (and why the rest is skipped), then exit",
  }),
  f({
    long: "json",
    key: "json",
    kind: "bool",
    category: "Other",
    description:
      "print the results document (the JSON report) on standard output, a listing as JSON, a failure as {error, code}; progress stays on standard error",
  }),
  f({
    long: "save-requests",
    key: "save_requests",
    kind: "string",
    category: "Other",
    arg: "file",
    description:
      "write every request of this benchmark as JSON Lines: start and end times, TTFT, inter-token gaps, token counts (a bare name goes to the results folder)",
  }),
  f({
    long: "percentiles",
    key: "percentiles",
    kind: "floats",
    min: 0,
    exclusiveMin: true,
    category: "Other",
    arg: "p[,p…]",
    description:
      "the latency percentiles the console's tables and the reports show, e.g. 50,90,95,99,99.9 (default: p50, p90, p99; kept with the result for later reports)",
  }),
];
