/**
 * Comparison: a model's (or one variant's, `?model=publisher/model@quant`) history as trend
 * charts with one line per variant, backend and machine (speed, TTFT, generation time), each
 * line's figures and trend, the model on each machine, and the newest load curves. The picker
 * opens another entry at once; the URL is the selection.
 *
 * @module
 */
import { shortModelName } from "../lib/shared/model_name.ts";
import { UNKNOWN_MACHINE, UNKNOWN_MACHINE_KEY } from "../lib/shared/machine.ts";
import { dateTime, fixed, parallelSpeed } from "../lib/shared/format.ts";
import KpiCard from "../components/KpiCard.tsx";
import Chart from "../islands/Chart.tsx";
import ComparisonPicker, { type PickerGroup } from "../islands/ComparisonPicker.tsx";
import { define } from "../lib/dashboard/services.ts";
import { page } from "../lib/http/mod.ts";
import {
  type ComparableVariant,
  comparableVariants,
  type HistorySeries,
  type LoadCurve,
  loadCurves,
  type MachineResult,
  type ModelHistory,
  modelHistory,
  modelOnMachines,
} from "../lib/store/mod.ts";
import LoadCurveCard from "../components/LoadCurveCard.tsx";
import MachinesCard from "../components/MachinesCard.tsx";

/** Page metadata. */
export const meta = { title: "Comparison" };

/** Points per line on the charts: longer lines are downsampled (first, last, min, max per run). */
const CHART_POINTS_PER_LINE = 400;

interface ComparisonData {
  groups: PickerGroup[];
  selected: string | null;
  /** The model's machines (an id, or `unknown`, and the name) and the URL's `machine`. */
  machines: { id: string; name: string }[];
  machine: string | null;
  history: ModelHistory | null;
  curves: LoadCurve[];
  /** The model's newest result of each line on each machine. */
  machines_on: MachineResult[];
}

/** The picker's groups: each model with its variants. */
function pickerGroups(variants: ComparableVariant[]): PickerGroup[] {
  const groups = Map.groupBy(variants, (v) => v.model_name);
  return [...groups].map(([model, vs]) => ({
    model,
    label: shortModelName(model),
    variants: vs.map((v) => ({
      key: v.model_key,
      label: `${shortModelName(model)} ${v.quantization ?? v.model_key}`,
    })),
  }));
}

/** Loads the picker and the selected entry's history (`?model=`, else the first model). */
export const handler = define.handlers({
  GET(c) {
    const db = c.var.services.store.db;
    const groups = pickerGroups(comparableVariants(db));
    const selected = c.req.query("model") ?? groups[0]?.model ?? null;
    const onMachines = selected ? modelOnMachines(db, selected) : [];
    const machines = [
      ...new Map(onMachines.map((r) => [r.machine_id ?? UNKNOWN_MACHINE_KEY, r.machine_name])),
    ].map(([id, name]) => ({ id, name }));
    // A machine the model has no result on shows every machine.
    const asked = c.req.query("machine") ?? null;
    const machine = machines.some((m) => m.id === asked) ? asked : null;
    const window = { kind: "downsampled", perLine: CHART_POINTS_PER_LINE } as const;
    const only = machine === null ? undefined : machine === UNKNOWN_MACHINE_KEY ? null : machine;
    const data: ComparisonData = {
      groups,
      selected,
      machines,
      machine,
      history: selected ? modelHistory(db, selected, window, only) : null,
      curves: selected ? loadCurves(db, selected, only) : [],
      machines_on: onMachines,
    };
    return page(data);
  },
});

/**
 * A series' name on the charts: the variant and, when several are shown, the backend, the
 * workload where it is not the configured prompt, and the machine when several are shown.
 */
function seriesLabel(s: HistorySeries, backends: number, machines = 1): string {
  const name = `${shortModelName(s.model_key.replace(/@[^@/]*$/, ""))} ${s.quantization ?? ""}`
    .trim();
  const withBackend = backends > 1 ? `${name} · ${s.backend}` : name;
  const withWorkload = s.workload ? `${withBackend} · ${s.workload}` : withBackend;
  return machines > 1 ? `${withWorkload} · on ${machineName(s)}` : withWorkload;
}

/** The machine of a series: its name, or "unknown machine". */
const machineName = (s: HistorySeries) => s.machine_name ?? UNKNOWN_MACHINE;

/** How many machines the series ran on. */
const machineCount = (h: ModelHistory) => new Set(h.series.map((s) => s.machine_id)).size;

const TREND: Record<string, string> = {
  up: "↑ up",
  down: "↓ down",
  stable: "→ no significant change",
  mixed: "mixed",
};

/** The trend charts: one line per series on a shared time axis. */
function TrendCharts({ h }: { h: ModelHistory }) {
  const times = [...new Set(h.history.map((p) => p.timestamp))].sort();
  const backends = new Set(h.series.map((s) => s.backend)).size;
  const machines = machineCount(h);
  const bySeries = Map.groupBy(h.history, (p) => p.series);
  const chart = (id: string, title: string, key: string, unit: string) => (
    <div class="card">
      <h2>{title}</h2>
      <Chart
        id={id}
        label={`${title} over time, one line per variant`}
        spec={{
          type: "line",
          labels: times.map(dateTime),
          series: h.series.map((s) => {
            const points = bySeries.get(s.id) ?? [];
            const at = new Map(points.map((p) => [p.timestamp, p[key] as number | null]));
            return {
              label: seriesLabel(s, backends, machines),
              data: times.map((t) => at.get(t) ?? null),
            };
          }),
          yTitle: unit,
        }}
      />
    </div>
  );
  const cut = h.series.some((s) => s.stats.total_runs > CHART_POINTS_PER_LINE);
  return (
    <>
      <section class="grid2">
        {chart("chart-speed", "Speed", "speed_tokens_sec", "tokens/s")}
        {chart("chart-ttft", "Time to first token", "ttft", "ms")}
        {chart("chart-gen", "Generation time", "gen_time", "ms")}
      </section>
      {cut && (
        <p class="hint" id="cmp-downsampled">
          The charts show at most {CHART_POINTS_PER_LINE}{" "}
          results per line: a longer line is cut into equal runs of results, each drawn by its
          first, last, slowest and fastest. The figures and trends below are over every result.
        </p>
      )}
    </>
  );
}

/** A series' newest parallel round (`84.2 ×2`), or "–" when it has none. */
function newestParallel(s: HistorySeries): string {
  const p = s.newest_parallel;
  return p ? parallelSpeed(p.tokens_per_sec, p.n_parallel) : "–";
}

/** Each series' figures and trend (and its newest parallel round when any series has one). */
function SeriesTable({ h }: { h: ModelHistory }) {
  const backends = new Set(h.series.map((s) => s.backend)).size;
  const parallel = h.series.map(newestParallel);
  const anyParallel = parallel.some((p) => p !== "–");
  return (
    <section class="card">
      <h2>Variants and backends</h2>
      <div class="scroll" tabIndex={0} role="region" aria-label="Variants and backends">
        <table class="table" id="series-table">
          <thead>
            <tr>
              <th>Variant</th>
              <th>Backend</th>
              <th>Machine</th>
              <th>Results</th>
              <th>Mean tok/s</th>
              <th>Min</th>
              <th>Max</th>
              <th>Trend</th>
              {anyParallel && (
                <th title="the newest parallel round: total output tok/s of ×N requests at once">
                  Parallel tok/s
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {h.series.map((s, i) => (
              <tr key={s.id} data-series={s.id}>
                <td title={s.model_key}>{seriesLabel(s, 1)}</td>
                <td>{s.backend}</td>
                <td class={s.machine_id === null ? "unknown-machine" : undefined}>
                  {machineName(s)}
                </td>
                <td>{s.stats.total_runs}</td>
                <td>{fixed(s.stats.avg_speed)}</td>
                <td>{fixed(s.stats.min_speed)}</td>
                <td>{fixed(s.stats.max_speed)}</td>
                <td class={`trend-${s.stats.trend}`}>{TREND[s.stats.trend]}</td>
                {anyParallel && <td>{parallel[i]}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {backends > 1 || h.series.length > 1
        ? (
          <p class="hint">
            Each line is one variant measured through one backend with one set of parameters on one
            machine: their speeds are not one trend. Up or down is said only when the newest
            result's runs differ from the line's first by Welch's t-test (p &lt; 0.05).
          </p>
        )
        : null}
    </section>
  );
}

/** The Comparison view. */
export default define.page<typeof handler>(function Comparison({ data: d }) {
  const h = d.history;
  return (
    <>
      <h1>Comparison</h1>
      {d.groups.length > 0 && (
        <ComparisonPicker
          groups={d.groups}
          selected={d.selected}
          machines={d.machines}
          machine={d.machine}
        />
      )}
      {!h
        ? (
          <p class="empty" id="cmp-empty">
            {d.groups.length === 0
              ? (
                <>
                  No history yet: start a benchmark on the <a href="/benchmark">Benchmark</a>{" "}
                  page; each model's results over time appear here once it has finished.
                </>
              )
              : `No finished result of ${d.selected}: pick a model above.`}
          </p>
        )
        : (
          <>
            <section class="kpis">
              <KpiCard id="cmp-runs" label="Results" value={String(h.stats.total_runs)} />
              <KpiCard id="cmp-lines" label="Lines" value={String(h.series.length)} />
              {h.series.length === 1
                ? (
                  <KpiCard
                    id="cmp-avg"
                    label="Mean"
                    value={fixed(h.stats.avg_speed)}
                    unit="tok/s"
                  />
                )
                : <KpiCard id="cmp-avg" label="Mean" value="per line" />}
              <KpiCard id="cmp-trend" label="Trend" value={TREND[h.stats.trend] ?? ""} />
            </section>
            <TrendCharts h={h} />
            <SeriesTable h={h} />
            <MachinesCard rows={d.machines_on} />
            <LoadCurveCard curves={d.curves} />
          </>
        )}
    </>
  );
});
