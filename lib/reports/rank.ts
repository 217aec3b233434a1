/**
 * `--rank-by`: the order of the PDF's detailed table.
 *
 * @module
 */
import { num, type RankBy, type ReportEntry } from "./model.ts";

/**
 * Names in code-point order, for the reports' sorting. Not `localeCompare`: its first call
 * loads ICU's collation data, 25–40 ms of CPU in a process that writes the reports and exits
 * (model keys and quantizations are ASCII identifiers, where the two orders differ only in
 * case: `Q8_0` before `q4_k_m`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareNames } from "./rank.ts";
 * assert.deepEqual(["q8_0", "q4_k_m", "f16"].sort(compareNames), ["f16", "q4_k_m", "q8_0"]);
 * ```
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Column and direction of each order. */
export const RANKINGS: Readonly<
  Record<RankBy, { column: string; descending: boolean; label: string }>
> = {
  speed: {
    column: "tokens_per_sec_mean",
    descending: true,
    label: "speed (tokens/s, fastest first)",
  },
  efficiency: {
    column: "tokens_per_sec_per_gb",
    descending: true,
    label: "efficiency (tokens/s per GiB, best first)",
  },
  ttft: { column: "ttft_ms_mean", descending: false, label: "time to first token (lowest first)" },
  vram: { column: "vram_mb", descending: false, label: "GPU memory (lowest first)" },
};

/**
 * Sorts entries by a ranking; entries without the value go last, ties keep the model name order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankEntries } from "./rank.ts";
 * assert.equal(rankEntries([], "ttft").length, 0);
 * ```
 */
export function rankEntries(entries: readonly ReportEntry[], rankBy: RankBy): ReportEntry[] {
  const { column, descending } = RANKINGS[rankBy];
  return [...entries].sort((a, b) => {
    const x = num(a, column);
    const y = num(b, column);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else if (x !== y) return descending ? y - x : x - y;
    return compareNames(a.row.model_key, b.row.model_key);
  });
}
