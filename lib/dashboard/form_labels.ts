/**
 * The Benchmark form's wording and grouping: each section's fields in order, with the human
 * label of each command-line argument (the flag itself is shown as a hint). Arguments that are
 * command-line actions, aliases or the preset (the form's own picker) are not fields.
 *
 * @module
 */

/** A section of the form. */
export interface SectionSpec {
  id: string;
  title: string;
  /** Open when the page loads. */
  open: boolean;
  /** Fields by the long name of their (first) flag. */
  fields: string[];
}

/** The sections, in page order; everything else is under "Advanced". */
export const SECTIONS: readonly SectionSpec[] = [
  {
    id: "basic",
    title: "Basic",
    open: true,
    fields: ["runs", "context", "prompt", "limit", "dev-mode", "retest"],
  },
  {
    id: "filters",
    title: "Which models",
    open: true,
    fields: [
      "include-models",
      "exclude-models",
      "quants",
      "arch",
      "params",
      "min-context",
      "max-size",
      "only-vision",
      "only-tools",
    ],
  },
  {
    id: "sampling",
    title: "Sampling",
    open: false,
    fields: ["temperature", "top-k", "top-p", "min-p", "repeat-penalty", "max-tokens"],
  },
  {
    id: "load",
    title: "Model load",
    open: false,
    fields: [
      "n-gpu-layers",
      "n-batch",
      "n-threads",
      "flash-attention",
      "use-mmap",
      "use-mlock",
      "kv-cache-quant",
      "rope-freq-base",
      "rope-freq-scale",
    ],
  },
  {
    id: "advanced",
    title: "Advanced",
    open: false,
    fields: [
      "backend",
      "base-url",
      "api-token",
      "request-timeout",
      "n-parallel",
      "unified-kv-cache",
      "enable-profiling",
      "max-temp",
      "max-power",
      "disable-gtt",
      "prompt-tokens",
      "gen-tokens",
      "kv-depth",
      "shared-prefix-tokens",
      "dataset-sample",
      "prompt-tokens-stddev",
      "gen-tokens-stddev",
      "range-ratio",
      "warmup-requests",
      "concurrency",
      "request-rate",
      "burstiness",
      "requests",
      "duration",
      "seed",
      "slo-ttft",
      "slo-tpot",
      "slo-e2el",
      "compare-with",
      "rank-by",
      "debug",
    ],
  },
];

/**
 * The label of each field (by flag), and for yes/no/default choices the words of each state.
 * A field whose flag has a negated twin (`--no-mmap`) is one control of three states.
 */
export const LABELS: Readonly<Record<string, string>> = {
  "runs": "Measured runs per model",
  "context": "Context length (tokens)",
  "prompt": "Prompt",
  "limit": "At most this many models",
  "dev-mode": "Quick check: the smallest model, one run",
  "retest": "Measure cached models again",
  "include-models": "Only models matching (regular expression)",
  "exclude-models": "Leave out models matching (regular expression)",
  "quants": "Quantizations (comma-separated)",
  "arch": "Architectures (comma-separated)",
  "params": "Parameter sizes (comma-separated)",
  "min-context": "Smallest maximum context (tokens)",
  "max-size": "Largest model size (GiB)",
  "only-vision": "Only models with vision",
  "only-tools": "Only models trained for tool use",
  "temperature": "Temperature",
  "top-k": "Top-k",
  "top-p": "Top-p",
  "min-p": "Min-p",
  "repeat-penalty": "Repeat penalty",
  "max-tokens": "Most tokens generated per run",
  "n-gpu-layers": "Layers on the GPU (-1 all, 0 none)",
  "n-batch": "Batch size",
  "n-threads": "CPU threads (-1 automatic)",
  "flash-attention": "Flash attention",
  "use-mmap": "Memory-map the model file",
  "use-mlock": "Lock the model in RAM",
  "kv-cache-quant": "K/V cache quantization",
  "rope-freq-base": "RoPE frequency base",
  "rope-freq-scale": "RoPE frequency scale",
  "backend": "Model-server client",
  "base-url": "Model-server address",
  "api-token": "API token",
  "request-timeout": "Longest silence of the server (s)",
  "n-parallel": "Requests at once in a parallel round",
  "unified-kv-cache": "One K/V cache for parallel requests",
  "enable-profiling": "Sample the hardware (GPU, CPU, RAM)",
  "max-temp": "Wait until the GPU is below (°C)",
  "max-power": "Wait until GPU power is below (W)",
  "disable-gtt": "AMD: leave shared GTT memory out",
  "prompt-tokens": "Prompt lengths (tokens, comma-separated)",
  "gen-tokens": "Output lengths (tokens, comma-separated)",
  "kv-depth": "Filled context before each prompt (tokens, comma-separated)",
  "shared-prefix-tokens": "Same first tokens in every request (prompt cache)",
  "concurrency": "Load curve: requests in flight (comma-separated)",
  "request-rate": "Load curve: requests per second (comma-separated)",
  "requests": "Requests per load level",
  "seed": "Seed of the arrivals, lengths and dataset sample",
  "slo-ttft": "Goodput target: time to first token (ms)",
  "slo-tpot": "Goodput target: time per output token (ms)",
  "slo-e2el": "Goodput target: end-to-end latency (ms)",
  "dataset-sample": "Requests picked from the dataset",
  "prompt-tokens-stddev": "Spread of the prompt lengths (standard deviation, tokens)",
  "gen-tokens-stddev": "Spread of the output lengths (standard deviation, tokens)",
  "range-ratio": "Lengths within target ± this fraction",
  "burstiness": "Burstiness of the arrivals (1: Poisson)",
  "duration": "Seconds per load level (instead of a request count)",
  "warmup-requests": "Warm-up requests before measuring",
  "compare-with": "Compare with an earlier report",
  "rank-by": "Order of the report's table",
  "debug": "Debug lines in the output",
};

/** Words of the choices of choice flags (value → label); values not listed are shown as is. */
export const CHOICE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "backend": {
    sdk: "LM Studio SDK",
    rest: "LM Studio REST v1",
    openai: "OpenAI-compatible server",
  },
  "rank-by": {
    speed: "Speed",
    efficiency: "Efficiency",
    ttft: "Time to first token",
    vram: "VRAM",
  },
};
