/**
 * The configuration object of the benchmark and the web app (seed: "Configuration object") as
 * one schema: every field's type, range, built-in default (DECISIONS.md "Benchmark") and the
 * phrase its messages use. The types of `types.ts`, the built-in defaults, the checks of every
 * file layer and the value checks of the command-line flags that set a configuration field all
 * come from here.
 *
 * @module
 */
import * as v from "valibot";
import { boolean, choice, integer, number, text } from "../schema/mod.ts";
import { DEFAULT_PORTS, normalisePorts } from "./ports.ts";

/** K/V cache quantization types a model server accepts. */
export const KV_CACHE_QUANTS = [
  "f32",
  "f16",
  "q8_0",
  "q4_0",
  "q4_1",
  "iq4_nl",
  "q5_0",
  "q5_1",
] as const;

/** The model-server clients. */
export const BACKENDS = ["sdk", "rest", "openai"] as const;

/** A field that may be null (the model server's default): null unless set. */
function orNull<T extends v.GenericSchema>(field: T) {
  return v.optional(v.nullable(field), null);
}

/** `modelserver` section. */
const MODEL_SERVER = v.object({
  host: v.optional(text(), "localhost"),
  /** The first port is the API port; the others are tried in order when it does not answer. */
  ports: v.optional(v.pipe(v.unknown(), v.transform(normalisePorts)), () => [...DEFAULT_PORTS]),
  api_token: orNull(text()),
  use_rest_api: v.optional(boolean(), false),
  /** Explicit backend; `null` means `rest` when `use_rest_api`, else `sdk`. */
  backend: orNull(choice(BACKENDS)),
  /** Base URL of an OpenAI-compatible server (`openai` backend), e.g. `http://127.0.0.1:8080`. */
  base_url: orNull(text()),
}, "an object");

/** `inference` section: sampling values sent with every chat. */
const INFERENCE = v.object({
  temperature: v.optional(number({ min: 0, max: 2 }), 0.1),
  top_k_sampling: v.optional(integer({ min: 0 }), 40),
  top_p_sampling: v.optional(number({ min: 0, max: 1 }), 0.9),
  min_p_sampling: v.optional(number({ min: 0, max: 1 }), 0.05),
  repeat_penalty: v.optional(number({ min: 0, exclusiveMin: true }), 1.2),
  max_tokens: v.optional(integer({ min: 1 }), 256),
}, "an object");

/** `load` section: values used when a model is loaded. */
const LOAD = v.object({
  /** -1 = all layers on the GPU, 0 = CPU only. */
  n_gpu_layers: v.optional(integer({ min: -1 }), -1),
  n_batch: v.optional(integer({ min: 1 }), 512),
  /** -1 = the server's default. */
  n_threads: v.optional(integer({ min: -1 }), -1),
  flash_attention: v.optional(boolean(), true),
  rope_freq_base: orNull(number({ min: 0, exclusiveMin: true })),
  rope_freq_scale: orNull(number({ min: 0, exclusiveMin: true })),
  use_mmap: v.optional(boolean(), true),
  use_mlock: v.optional(boolean(), false),
  /** K/V cache quantization type (e.g. `q8_0`), null = the server's default. */
  kv_cache_quant: orNull(choice(KV_CACHE_QUANTS)),
}, "an object");

/** `store` section: where the results are kept. */
const STORE = v.object({
  /** A `postgres://` URL or a SQLite file; null: `<data dir>/results.db`. */
  url: orNull(text({ nonEmpty: true })),
}, "an object");

/** The merged configuration: one object read by the benchmark and the web app. */
export const CONFIG_SCHEMA = v.object({
  prompt: v.optional(text({ nonEmpty: true }), "Explain machine learning in 3 sentences."),
  context_length: v.optional(integer({ min: 1 }), 2048),
  num_runs: v.optional(integer({ min: 1 }), 3),
  modelserver: v.optional(MODEL_SERVER, {}),
  inference: v.optional(INFERENCE, {}),
  load: v.optional(LOAD, {}),
  store: v.optional(STORE, {}),
}, "an object");
