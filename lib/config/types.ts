/**
 * The types of the configuration object (seed: "Configuration object"), read from its schema
 * (`schema.ts`).
 *
 * @module
 */
import type * as v from "valibot";
import type { BACKENDS, CONFIG_SCHEMA, KV_CACHE_QUANTS } from "./schema.ts";

/** Which model-server client the benchmark uses. */
export type BackendKind = typeof BACKENDS[number];

/** One of {@linkcode KV_CACHE_QUANTS}. */
export type KvCacheQuant = typeof KV_CACHE_QUANTS[number];

/** The merged configuration: one object read by the benchmark and the web app. */
export type Config = v.InferOutput<typeof CONFIG_SCHEMA>;

/** `modelserver` section. */
export type ModelServerConfig = Config["modelserver"];

/** `inference` section: sampling values sent with every chat. */
export type InferenceConfig = Config["inference"];

/** `load` section: values used when a model is loaded. */
export type LoadConfig = Config["load"];

/** The backend a configuration selects. */
export function backendOf(config: Config): BackendKind {
  return config.modelserver.backend ?? (config.modelserver.use_rest_api ? "rest" : "sdk");
}
