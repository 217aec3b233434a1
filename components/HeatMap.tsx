/**
 * Heatmap of model × quantization → average tokens/s, as a table whose cells are shaded by
 * value (no canvas needed; readable and accessible).
 *
 * @module
 */
import { fixed } from "../lib/shared/format.ts";
import { shortModelName } from "../lib/shared/model_name.ts";

/** A result the heatmap reads. */
export interface HeatRow {
  model_name: string;
  quantization: string | null;
  tokens_per_sec_mean: number | null;
}

/** Average per (model, quantization) and the axis labels. */
export function heatCells(rows: HeatRow[]) {
  const sums = new Map<string, { sum: number; n: number }>();
  const models = new Set<string>();
  const quants = new Set<string>();
  for (const r of rows) {
    if (typeof r.tokens_per_sec_mean !== "number") continue;
    const q = r.quantization ?? "unknown";
    models.add(r.model_name);
    quants.add(q);
    const key = `${r.model_name}\u0000${q}`;
    const cell = sums.get(key) ?? { sum: 0, n: 0 };
    cell.sum += r.tokens_per_sec_mean;
    cell.n++;
    sums.set(key, cell);
  }
  const avg = (m: string, q: string) => {
    const c = sums.get(`${m}\u0000${q}`);
    return c ? c.sum / c.n : null;
  };
  const values = [...sums.values()].map((c) => c.sum / c.n);
  return {
    models: [...models].sort(),
    quants: [...quants].sort(),
    avg,
    max: Math.max(0, ...values),
  };
}

/** The heatmap table. */
export default function HeatMap(props: { rows: HeatRow[] }) {
  const { models, quants, avg, max } = heatCells(props.rows);
  if (models.length === 0) return <p class="empty">No data for the heatmap.</p>;
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label="Heatmap of model and quantization">
      <table class="heatmap" id="heatmap">
        <thead>
          <tr>
            <th>Model</th>
            {quants.map((q) => <th key={q}>{q}</th>)}
          </tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={m}>
              <th scope="row" title={m}>{shortModelName(m)}</th>
              {quants.map((q) => {
                const v = avg(m, q);
                const alpha = v === null || max === 0 ? 0 : 0.15 + 0.85 * (v / max);
                return (
                  <td
                    key={q}
                    class={`heat-${Math.round(alpha * 10)}`}
                    title={`${shortModelName(m)} ${q}: ${fixed(v)} tok/s`}
                  >
                    {fixed(v)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
