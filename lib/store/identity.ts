/**
 * A result's identity: the hash of everything that changes what is measured (the model variant
 * aside): prompt, context, sampling, the load values the backend can set, backend, parallelism and
 * the workload — prompt and output length targets, concurrency or request rate and their
 * requests, seed and SLOs. One identity is one line of history: the cache, Δ, trends, the
 * comparison and the reports' rows group by it. A value the backend cannot apply is left out (it
 * would not change the measurement).
 *
 * A grid of several prompt or output lengths is several identities: each cell is stored as its
 * own result (split.ts), hashed with that cell's lengths alone, the same hash a run of that one
 * cell gets.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { canSet } from "../backend_caps.ts";

/** The hashed parameters: the measured ones as stored in `results.params_json`. */
export interface IdentityParams {
  backend: string;
  load: Record<string, unknown>;
  context_length?: number;
  n_parallel?: number;
  /** The controlled workload and load curve, only when one is asked for. */
  workload?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The part of the parameters that is hashed: load values the backend cannot set are left out. */
export function keyedParams<P extends IdentityParams>(params: P): P {
  if (params.backend === "sdk") return params;
  const load = Object.fromEntries(
    Object.entries(params.load).filter(([k]) => canSet(params.backend, k)),
  );
  const keyed: P & { offload_kv_cache_to_gpu?: boolean } = { ...params, load };
  // REST v1 sends n_gpu_layers only as KV-cache offload on/off.
  if (params.backend === "rest") keyed.offload_kv_cache_to_gpu = params.load.n_gpu_layers !== 0;
  if (!canSet(params.backend, "context_length")) delete keyed.context_length;
  return keyed;
}

/** JSON with object keys sorted (undefined values left out): equal content, equal text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 over the canonical JSON of the keyed parameters, first 16 hex digits. */
export function paramsHash(params: IdentityParams): string {
  return createHash("sha256").update(canonical(keyedParams(params))).digest("hex").slice(0, 16);
}

/**
 * One cell of a grid: a prompt length and an output length target (null: as configured), and the
 * context tokens filled before the prompt (`--kv-depth`; null or 0: none).
 */
export interface GridCell {
  prompt_tokens: number | null;
  gen_tokens: number | null;
  kv_depth?: number | null;
}

/** `pp128 tg32`, `pp128`, `tg32` or `default`, with ` @ d4096` at a filled context. */
export function cellLabel(c: GridCell): string {
  const parts = [
    c.prompt_tokens !== null ? `pp${c.prompt_tokens}` : null,
    c.gen_tokens !== null ? `tg${c.gen_tokens}` : null,
  ].filter((x) => x !== null);
  const depth = c.kv_depth ? `d${c.kv_depth}` : null;
  if (!parts.length) return depth ?? "default";
  return depth ? `${parts.join(" ")} @ ${depth}` : parts.join(" ");
}

/**
 * The load-curve and SLO values of a workload (what a grid's first cell keeps); the benchmark's
 * identity (lib/bench/cache_key.ts) writes exactly these for a load curve, as typed by
 * {@linkcode LoadKey}.
 */
export const LOAD_KEYS = [
  "concurrency",
  "request_rate",
  "requests",
  "slo_ttft_ms",
  "slo_tpot_ms",
  "slo_e2el_ms",
  "burstiness",
  "duration_s",
] as const;

/** A key of a workload's load curve. */
export type LoadKey = typeof LOAD_KEYS[number];

/**
 * The parameters of one cell of a grid: its lengths alone. `withRest` keeps what the grid's
 * result also measured besides its cells (parallel rounds, the load curve): the first cell's
 * result keeps those; the other cells' results measured only their lengths.
 */
export function cellParams<P extends IdentityParams>(
  params: P,
  cell: GridCell,
  withRest: boolean,
): P {
  const workload: Record<string, unknown> = { ...params.workload };
  delete workload.prompt_tokens;
  delete workload.gen_tokens;
  delete workload.kv_depth;
  if (cell.prompt_tokens !== null) workload.prompt_tokens = [cell.prompt_tokens];
  if (cell.gen_tokens !== null) workload.gen_tokens = [cell.gen_tokens];
  // Depth 0 is no filled context: the same identity as a run without --kv-depth.
  if (cell.kv_depth) workload.kv_depth = [cell.kv_depth];
  const out: P = { ...params };
  if (!withRest) {
    for (const k of LOAD_KEYS) delete workload[k];
    if (out.n_parallel !== undefined) out.n_parallel = 1;
  }
  if (Object.keys(workload).length) out.workload = workload;
  else delete out.workload;
  return out;
}

/** The workload of a result in words, from its parameters; null for the configured prompt. */
export function workloadText(paramsJson: unknown): string | null {
  let w: Record<string, unknown> | undefined;
  try {
    w = JSON.parse(String(paramsJson ?? "{}"))?.workload;
  } catch {
    return null;
  }
  if (!w || typeof w !== "object") return null;
  const list = (v: unknown) => Array.isArray(v) && v.length ? v.join(",") : null;
  const spread = (v: unknown) => typeof v === "number" && v > 0 ? ` ±${v}` : "";
  const dataset = w.dataset && typeof w.dataset === "object"
    ? w.dataset as { path?: unknown; sample?: unknown }
    : null;
  const file = dataset ? String(dataset.path ?? "").split(/[\\/]/).at(-1) : null;
  const parts = [
    dataset && `dataset ${file}${typeof dataset.sample === "number" ? ` (${dataset.sample})` : ""}`,
    list(w.prompt_tokens) &&
    `prompt ${list(w.prompt_tokens)}${spread(w.prompt_tokens_stddev)} tokens`,
    list(w.gen_tokens) && `${list(w.gen_tokens)}${spread(w.gen_tokens_stddev)} out`,
    typeof w.range_ratio === "number" && w.range_ratio > 0 && `range ratio ${w.range_ratio}`,
    list(w.kv_depth) && `depth ${list(w.kv_depth)}`,
    list(w.concurrency) && `concurrency ${list(w.concurrency)}`,
    list(w.request_rate) && `${list(w.request_rate)} req/s`,
    typeof w.burstiness === "number" && `burstiness ${w.burstiness}`,
    typeof w.duration_s === "number" && `${w.duration_s} s`,
    // Requests alone: an imported run at an unbounded rate (vllm bench serve's default).
    typeof w.requests === "number" && !list(w.concurrency) && !list(w.request_rate) &&
    `${w.requests} requests`,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : null;
}
