/**
 * Comparison: pick a model, see its history (speed, TTFT and generation time per finished
 * result) as trend charts with min, max, mean and the trend direction, and its newest load
 * curves (output tokens/s by concurrency and by request rate).
 *
 * @module
 */
import { shortModelName } from "../lib/shared/model_name.ts";
import { fmt, fmtTime } from "../components/format.ts";
import KpiCard from "../components/KpiCard.tsx";
import Chart from "../islands/Chart.tsx";
import { define } from "../lib/control/services.ts";
import { page } from "../lib/http/fw/mod.ts";
import type { Row } from "../lib/store/mod.ts";
import { comparableModels, type ModelHistory, modelHistory } from "../lib/store/dashboard.ts";
import { type LoadCurve, loadCurves } from "../lib/store/load_curves.ts";
import LoadCurveCard from "../components/LoadCurveCard.tsx";

/** Page metadata. */
export const meta = { title: "Comparison" };

interface ComparisonData {
  models: Row[];
  selected: string | null;
  history: ModelHistory | null;
  curves: LoadCurve[];
}

/** Loads the model list and the selected model's history (`?model=`). */
export const handler = define.handlers({
  GET(c) {
    const db = c.var.services.store.db;
    const models = comparableModels(db);
    const selected = c.req.query("model") ?? (models[0]?.model_name as string | undefined) ??
      null;
    const data: ComparisonData = {
      models,
      selected,
      history: selected ? modelHistory(db, selected) : null,
      curves: selected ? loadCurves(db, selected) : [],
    };
    return page(data);
  },
});

/** The Comparison view. */
export default define.page<typeof handler>(function Comparison({ data: d }) {
  const h = d.history;
  const labels = h?.history.map((p, i) => `#${i + 1} ${fmtTime(p.timestamp)}`) ?? [];
  const line = (id: string, label: string, key: string, unit: string) => (
    <div class="card">
      <h2>{label}</h2>
      <Chart
        id={id}
        label={`${label} over time`}
        spec={{
          type: "line",
          labels,
          series: [{ label: unit, data: h!.history.map((p) => p[key] as number | null) }],
          yTitle: unit,
        }}
      />
    </div>
  );
  return (
    <>
      <h1>Comparison</h1>
      <form method="get" class="toolbar">
        <label for="model">Model</label>
        <select id="model" name="model">
          {d.models.map((m) => (
            <option
              key={String(m.model_name)}
              value={String(m.model_name)}
              selected={m.model_name === d.selected}
            >
              {shortModelName(String(m.model_name))}
            </option>
          ))}
        </select>
        <button type="submit">Show</button>
      </form>
      {!h ? <p class="empty">No history yet.</p> : (
        <>
          <section class="kpis">
            <KpiCard id="cmp-runs" label="Results" value={String(h.stats.total_runs)} />
            <KpiCard id="cmp-avg" label="Mean" value={fmt(h.stats.avg_speed)} unit="tok/s" />
            <KpiCard id="cmp-min" label="Min" value={fmt(h.stats.min_speed)} unit="tok/s" />
            <KpiCard id="cmp-max" label="Max" value={fmt(h.stats.max_speed)} unit="tok/s" />
            <KpiCard id="cmp-trend" label="Trend" value={h.stats.trend} />
          </section>
          <section class="grid2">
            {line("chart-speed", "Speed", "speed_tokens_sec", "tokens/s")}
            {line("chart-ttft", "Time to first token", "ttft", "ms")}
            {line("chart-gen", "Generation time", "gen_time", "ms")}
          </section>
          <LoadCurveCard curves={d.curves} />
        </>
      )}
    </>
  );
});
