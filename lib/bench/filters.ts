/**
 * Model filters (seed: "Filter" arguments) and the limits (`--limit`, `--dev-mode`).
 *
 * @module
 */
import type { FilterOptions } from "./options.ts";
import { sizeGiB, type Target } from "./target.ts";

/** Why a target was left out. */
export interface Dropped {
  key: string;
  reason: string;
  /** True when the field the filter reads is unknown for this model (not a real mismatch). */
  unknown?: boolean;
}

/** The words added to a reason when the server did not tell the field. */
export const UNKNOWN_FIELD =
  "unknown: the server does not report it before loading (LM Studio and a local llama.cpp " +
  "server do; a remote OpenAI-compatible server does not)";

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
    const missing = (field: string, flag: string) =>
      `${field} ${UNKNOWN_FIELD}, so ${flag} leaves it out`;
    const reason = f.only_vision && !t.vision
      ? "no vision"
      : f.only_tools && !t.tools
      ? "not trained for tool use"
      : quants.length && t.quantization === null
      ? missing("quantization", "--quants")
      : quants.length && !quants.some((q) => (t.quantization ?? "").toLowerCase().includes(q))
      ? `quantization ${t.quantization} not in --quants`
      : archs.length && t.architecture === null
      ? missing("architecture", "--arch")
      : archs.length && !archs.includes((t.architecture ?? "").toLowerCase())
      ? `architecture ${t.architecture} not in --arch`
      : params.length && t.params_string === null
      ? missing("parameter count", "--params")
      : params.length && !params.includes((t.params_string ?? "").toUpperCase())
      ? `parameters ${t.params_string} not in --params`
      : f.min_context !== null && t.max_context_length === null
      ? missing("maximum context", "--min-context")
      : f.min_context !== null && (t.max_context_length ?? 0) < f.min_context
      ? `maximum context ${t.max_context_length} below --min-context`
      : f.max_size !== null && t.size_bytes === null
      ? missing("size", "--max-size")
      : f.max_size !== null && (sizeGiB(t) ?? Infinity) > f.max_size
      ? `size above --max-size ${f.max_size} GiB`
      : include && !include.test(t.key)
      ? "not matched by --include-models"
      : exclude && exclude.test(t.key)
      ? "matched by --exclude-models"
      : null;
    if (reason) dropped.push({ key: t.key, reason, unknown: reason.includes(UNKNOWN_FIELD) });
    else kept.push(t);
  }
  return { kept, dropped };
}

/** The smallest target by size (unknown sizes last); used by `--dev-mode`. */
export function smallest(targets: Target[]): Target | null {
  return [...targets].sort((a, b) => (a.size_bytes ?? Infinity) - (b.size_bytes ?? Infinity))[0] ??
    null;
}
