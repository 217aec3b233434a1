/**
 * `--rank-by`: the order of the PDF's detailed table.
 *
 * @module
 */
import { num, type RankBy, type ReportEntry } from "./model.ts";

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
    return a.row.model_key.localeCompare(b.row.model_key);
  });
}
