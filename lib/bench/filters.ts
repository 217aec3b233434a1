/**
 * Model filters (seed: "Filter" arguments) and the limits (`--limit`, `--dev-mode`).
 *
 * @module
 */
import type { FilterOptions } from "../cli/options.ts";
import { sizeGiB, type Target } from "./target.ts";

/** Why a target was left out. */
export interface Dropped {
  key: string;
  reason: string;
}

/** Applies the filters; returns the kept targets (in order) and the dropped ones with reasons. */
export function applyFilters(
  targets: Target[],
  f: FilterOptions,
): { kept: Target[]; dropped: Dropped[] } {
  const include = f.include_models ? new RegExp(f.include_models, "i") : null;
  const exclude = f.exclude_models ? new RegExp(f.exclude_models, "i") : null;
  const quants = f.quants.map((q) => q.toLowerCase());
  const archs = f.arch.map((a) => a.toLowerCase());
  const params = f.params.map((p) => p.toUpperCase());
  const kept: Target[] = [];
  const dropped: Dropped[] = [];
  for (const t of targets) {
    const reason = f.only_vision && !t.vision
      ? "no vision"
      : f.only_tools && !t.tools
      ? "not trained for tool use"
      : quants.length && !quants.some((q) => (t.quantization ?? "").toLowerCase().includes(q))
      ? `quantization ${t.quantization ?? "unknown"} not in --quants`
      : archs.length && !archs.includes((t.architecture ?? "").toLowerCase())
      ? `architecture ${t.architecture ?? "unknown"} not in --arch`
      : params.length && !params.includes((t.params_string ?? "").toUpperCase())
      ? `parameters ${t.params_string ?? "unknown"} not in --params`
      : f.min_context !== null && (t.max_context_length ?? 0) < f.min_context
      ? `maximum context ${t.max_context_length ?? "unknown"} below --min-context`
      : f.max_size !== null && (sizeGiB(t) ?? Infinity) > f.max_size
      ? `size above --max-size ${f.max_size} GB`
      : include && !include.test(t.key)
      ? "not matched by --include-models"
      : exclude && exclude.test(t.key)
      ? "matched by --exclude-models"
      : null;
    if (reason) dropped.push({ key: t.key, reason });
    else kept.push(t);
  }
  return { kept, dropped };
}

/** The smallest target by size (unknown sizes last); used by `--dev-mode`. */
export function smallest(targets: Target[]): Target | null {
  return [...targets].sort((a, b) => (a.size_bytes ?? Infinity) - (b.size_bytes ?? Infinity))[0] ??
    null;
}
