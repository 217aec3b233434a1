/**
 * Type checks for configuration layers, so a wrong value in a file is reported with the file and
 * the key instead of failing later.
 *
 * @module
 */
import { AppError } from "../error.ts";
import { isPlainObject, type JsonObject } from "./merge.ts";
import { KV_CACHE_QUANTS } from "./types.ts";

type Check = (value: unknown) => string | null;

const num: Check = (v) => typeof v === "number" && Number.isFinite(v) ? null : "a number";
const int = (min: number): Check => (v) =>
  typeof v === "number" && Number.isInteger(v) && v >= min ? null : `an integer ≥ ${min}`;
const str: Check = (v) => typeof v === "string" ? null : "a string";
const bool: Check = (v) => typeof v === "boolean" ? null : "true or false";
const oneOf = (values: readonly string[]): Check => (v) =>
  typeof v === "string" && values.includes(v) ? null : `one of ${values.join(", ")}`;
const any: Check = () => null;

/** Expected type of every known key, by dotted path (null values are always allowed). */
const SCHEMA: Record<string, Check> = {
  "prompt": (v) => typeof v === "string" && v.trim() !== "" ? null : "a non-empty string",
  "context_length": int(1),
  "num_runs": int(1),
  "modelserver.host": str,
  "modelserver.ports": any, // normalised after merging
  "modelserver.api_token": str,
  "modelserver.use_rest_api": bool,
  "modelserver.backend": oneOf(["sdk", "rest", "openai"]),
  "modelserver.base_url": str,
  "inference.temperature": num,
  "inference.top_k_sampling": int(0),
  "inference.top_p_sampling": num,
  "inference.min_p_sampling": num,
  "inference.repeat_penalty": num,
  "inference.max_tokens": int(1),
  "load.n_gpu_layers": int(-1),
  "load.n_batch": int(1),
  "load.n_threads": int(-1),
  "load.flash_attention": bool,
  "load.rope_freq_base": num,
  "load.rope_freq_scale": num,
  "load.use_mmap": bool,
  "load.use_mlock": bool,
  "load.kv_cache_quant": oneOf(KV_CACHE_QUANTS),
};

const SECTIONS = new Set(["modelserver", "inference", "load"]);

/** What a wrong value is, without repeating it (files may hold secrets such as the token). */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "boolean") return String(value);
  return typeof value === "object" ? "an object" : typeof value;
}

/**
 * Checks one layer (a parsed file). Throws `AppError` 422 naming `source` (a description such as
 * `the user configuration (defaults.json)`) and the key for a value of the wrong type, saying
 * what the value is without repeating it; returns the unknown keys so the caller can warn.
 */
export function validateLayer(layer: unknown, source: string): string[] {
  if (!isPlainObject(layer)) {
    throw new AppError(422, `Cannot use ${source}: it must hold a JSON object`, {
      code: "invalid_config",
    });
  }
  const unknown: string[] = [];
  const visit = (obj: JsonObject, prefix: string) => {
    for (const [key, value] of Object.entries(obj)) {
      const path = prefix + key;
      if (prefix === "" && SECTIONS.has(key) && (isPlainObject(value) || value === null)) {
        if (value) visit(value, `${key}.`);
        continue;
      }
      const check = SCHEMA[path];
      if (!check) {
        unknown.push(path);
        continue;
      }
      if (value === null) continue;
      const expected = check(value);
      if (expected) {
        throw new AppError(
          422,
          `Cannot use ${source}: '${path}' must be ${expected}: got ${kindOf(value)}`,
          {
            code: "invalid_config",
          },
        );
      }
    }
  };
  visit(layer, "");
  return unknown;
}
