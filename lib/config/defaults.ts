/**
 * Built-in defaults, the lowest configuration layer (DECISIONS.md "Benchmark"): the defaults of
 * the configuration schema.
 *
 * @module
 */
import * as v from "valibot";
import { CONFIG_SCHEMA } from "./schema.ts";
import type { Config } from "./types.ts";

export { DEFAULT_PORTS } from "./ports.ts";

/**
 * Returns a fresh copy of the built-in defaults.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { builtInDefaults } from "./defaults.ts";
 * const d = builtInDefaults();
 * assert.deepEqual([d.num_runs, d.modelserver.ports, d.load.rope_freq_base], [3, [1234, 1235], null]);
 * ```
 */
export function builtInDefaults(): Config {
  return v.parse(CONFIG_SCHEMA, {});
}
