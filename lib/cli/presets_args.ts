/**
 * Presets map to command-line arguments: a preset's values become an argument vector that goes
 * through the same parser (and validation) as the user's arguments.
 *
 * @module
 */
import type { PresetValues } from "../config/mod.ts";
import { UnprocessableError } from "../error.ts";
import { ACTION_FLAGS, FLAGS } from "./flags.ts";

/** Flags a preset may not set (actions, secrets, the preset itself). */
const NOT_IN_PRESETS = new Set([...ACTION_FLAGS, "preset", "api_token"]);

/**
 * Converts preset values to arguments. Unknown keys are an error naming the preset and key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { presetToArgs } from "./presets_args.ts";
 * const args = presetToArgs("p", { runs: 5, retest: true, use_mmap: false });
 * assert.deepEqual(args, ["--runs", "5", "--retest", "--no-mmap"]);
 * ```
 */
export function presetToArgs(name: string, values: PresetValues): string[] {
  const args: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    const specs = FLAGS.filter((s) => s.key === key);
    if (specs.length === 0 || NOT_IN_PRESETS.has(key)) {
      throw new UnprocessableError(`Invalid preset '${name}': '${key}' is not a preset setting`, {
        code: "invalid_preset",
      });
    }
    if (specs[0]!.kind === "bool") {
      const spec = specs.find((s) => (s.value ?? true) === value);
      if (spec) args.push(`--${spec.long}`);
      continue;
    }
    const spec = specs[0]!;
    args.push(`--${spec.long}`, Array.isArray(value) ? value.join(",") : String(value));
  }
  return args;
}
