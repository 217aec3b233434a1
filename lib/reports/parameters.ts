/**
 * The parameters a report shows: the measured values stored with each result (so CLI overrides
 * and preset values are included exactly as they were used), grouped by parameter hash, and the
 * run options that shaped the report.
 *
 * @module
 */
import type { RunOptions } from "../bench/mod.ts";
import type { ReportEntry } from "./model.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** One distinct set of measured parameters and the variants measured with it. */
export interface ParameterSet {
  params_hash: string;
  backend: string;
  /** Measured runs per model (not part of the hash; every distinct value is listed). */
  num_runs: number[];
  values: Record<string, unknown>;
  models: string[];
}

/** The distinct parameter sets of the entries, largest first. */
export function parameterSets(entries: readonly ReportEntry[]): ParameterSet[] {
  const sets = new Map<string, ParameterSet>();
  for (const e of entries) {
    const hash = e.row.params_hash;
    const set = sets.get(hash) ?? {
      params_hash: hash,
      backend: e.row.backend,
      num_runs: [],
      values: e.params,
      models: [],
    };
    const runs = e.row.num_runs;
    if (typeof runs === "number" && !set.num_runs.includes(runs)) set.num_runs.push(runs);
    set.models.push(e.row.model_key);
    sets.set(hash, set);
  }
  return [...sets.values()].sort((a, b) => b.models.length - a.models.length);
}

/** Flattens nested values into `[dotted.key, display text]` pairs (null shown as "default"). */
export function flattenParams(values: Record<string, unknown>, prefix = ""): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(values)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value)) {
      out.push(...flattenParams(value, name));
    } else {
      out.push([
        name,
        value === null || value === undefined
          ? "default"
          : Array.isArray(value)
          ? value.join(", ")
          : String(value),
      ]);
    }
  }
  return out;
}

/** The run options a report records (filters, profiling limits, ranking, comparison). */
export function reportOptions(options: RunOptions): Record<string, unknown> {
  const f = options.filters;
  const filters = Object.fromEntries(
    Object.entries(f).filter(([, v]) =>
      v !== null && v !== false && !(Array.isArray(v) && v.length === 0)
    ),
  );
  return {
    filters,
    limit: options.limit,
    dev_mode: options.dev_mode,
    retest: options.retest,
    enable_profiling: options.enable_profiling,
    max_temp: options.max_temp,
    max_power: options.max_power,
    disable_gtt: options.disable_gtt,
    rank_by: options.rank_by,
    compare_with: options.compare_with,
  };
}
