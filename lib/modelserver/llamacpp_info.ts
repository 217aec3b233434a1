/**
 * What llama.cpp's server tells about a model without a benchmark request: the router's per-model
 * command line (`/v1/models` `status.args`: the GGUF file, context, slots, threads...) and
 * `/props` (per-slot context and slot count of a loaded model, the model file in single-model
 * mode). Read back after a load, so reports show the values the server really runs with.
 *
 * @module
 */
import type { ServerConfig } from "./backend.ts";

/** The value after the first of `names` in a command line, or undefined. */
export function argValue(args: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < args.length - 1; i++) {
    if (names.includes(args[i]!)) return args[i + 1];
  }
  return undefined;
}

const num = (v: string | undefined): number | undefined => {
  if (v === undefined || !/^-?\d+(\.\d+)?$/.test(v.trim())) return undefined;
  return Number(v);
};

/** The GGUF file of a router entry's command line (`--model`/`-m`), or null. */
export function modelPathOfArgs(args: readonly string[] | undefined): string | null {
  return args ? argValue(args, ["--model", "-m"]) ?? null : null;
}

/** The load values of a llama-server command line (only those it gives). */
export function serverConfigFromArgs(args: readonly string[]): ServerConfig {
  const out: ServerConfig = {};
  const set = <K extends keyof ServerConfig>(k: K, v: ServerConfig[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set("context_length", num(argValue(args, ["--ctx-size", "-c"])));
  set("n_batch", num(argValue(args, ["--batch-size", "-b"])));
  set("n_threads", num(argValue(args, ["--threads", "-t"])));
  set("n_gpu_layers", num(argValue(args, ["--n-gpu-layers", "--gpu-layers", "-ngl"])));
  set("parallel", num(argValue(args, ["--parallel", "-np"])));
  set("rope_freq_base", num(argValue(args, ["--rope-freq-base"])));
  set("rope_freq_scale", num(argValue(args, ["--rope-freq-scale"])));
  const kv = argValue(args, ["--cache-type-k", "-ctk"]);
  if (kv !== undefined) out.kv_cache_quant = kv.toLowerCase();
  const fa = argValue(args, ["--flash-attn", "-fa"]);
  if (fa !== undefined && ["on", "off"].includes(fa)) out.flash_attention = fa === "on";
  if (args.includes("--mlock")) out.use_mlock = true;
  if (args.includes("--no-mmap")) out.use_mmap = false;
  return out;
}

/** `/props` of a loaded model (or of a single-model server). */
export interface LlamaProps {
  build_info?: unknown;
  role?: unknown;
  total_slots?: unknown;
  model_path?: unknown;
  default_generation_settings?: { n_ctx?: unknown };
}

/** The slot count and context that `/props` reports (whole context = per slot × slots). */
export function serverConfigFromProps(props: LlamaProps | null): ServerConfig {
  const out: ServerConfig = {};
  const slots = typeof props?.total_slots === "number" ? props.total_slots : undefined;
  const perSlot = props?.default_generation_settings?.n_ctx;
  if (slots !== undefined) out.parallel = slots;
  if (typeof perSlot === "number" && perSlot > 0) {
    out.context_per_slot = perSlot;
    out.context_length = perSlot * (slots ?? 1);
  }
  return out;
}
