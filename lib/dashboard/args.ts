/**
 * The body of `POST /api/benchmark/start` as command-line arguments: keys are the flag keys
 * (`runs`, `include_models`, `n_parallel`, ... or their dashed long names), values are JSON
 * scalars or arrays for list flags; `{"preset": "name"}` selects a preset. The arguments then go
 * through the command line's own parser, so validation and messages are the same.
 *
 * @module
 */
import { ACTION_FLAGS, FLAGS, type FlagSpec, isListKind } from "../cli/mod.ts";
import { badRequest } from "../error.ts";

/** The flags the dashboard form offers, in table order (actions left out). */
export function webFlags(): FlagSpec[] {
  return FLAGS.filter((f) => !ACTION_FLAGS.has(f.key));
}

function specsOf(key: string): FlagSpec[] {
  const k = key.replace(/-/g, "_");
  const byKey = FLAGS.filter((f) => f.key === k);
  if (byKey.length > 0) return byKey;
  return FLAGS.filter((f) => f.long === key || f.long.replace(/-/g, "_") === k);
}

/**
 * Converts a start body to arguments.
 *
 * @throws {UsageError} for an unknown key, an action flag or a value of the wrong type.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bodyToArgs } from "./args.ts";
 * const args = bodyToArgs({ runs: 2, use_mmap: false, quants: ["q4_k_m", "q8_0"] });
 * assert.equal(args.join(" "), "--runs 2 --no-mmap --quants q4_k_m,q8_0");
 * ```
 */
export function bodyToArgs(body: Record<string, unknown>): string[] {
  const args: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const specs = specsOf(key);
    const spec = specs[0];
    if (!spec) throw badRequest(`Unknown benchmark argument '${key}'`);
    if (ACTION_FLAGS.has(spec.key)) {
      throw badRequest(`Argument '${key}' is a command-line action and cannot be started here`);
    }
    if (value === null || value === undefined || value === "") continue;
    if (spec.kind === "bool") {
      if (typeof value !== "boolean") throw badRequest(`Argument '${key}' must be true or false`);
      const flag = specs.find((s) => (s.value ?? true) === value);
      if (flag) args.push(`--${flag.long}`);
      continue;
    }
    if (Array.isArray(value)) {
      const items = spec.kind === "list" ? "string" : "number";
      if (
        !isListKind(spec.kind) ||
        !value.every((v) => typeof v === items || (typeof v === "string" && items === "number"))
      ) {
        throw badRequest(`Argument '${key}' must be a single value, not a list`);
      }
      if (value.length > 0) args.push(`--${spec.long}`, value.join(","));
      continue;
    }
    if (typeof value !== "string" && typeof value !== "number") {
      throw badRequest(`Argument '${key}' must be a string or a number`);
    }
    const text = String(value);
    if (text.length > 2000) throw badRequest(`Argument '${key}' is longer than 2000 characters`);
    args.push(`--${spec.long}`, text);
  }
  return args;
}
