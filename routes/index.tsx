/**
 * Home: KPI cards (cached models, average speed, P50, P95, architectures, quantizations), the
 * top-10 bar chart, the quantization donut and the most efficient models. The charts are SVG
 * drawn here (the page ships no script); every model links to its history on Comparison. With no
 * result (or no VRAM figure) it says so and what to do instead of showing zeros.
 *
 * @module
 */
import { shortModelName } from "../lib/shared/model_name.ts";
import { fixed } from "../lib/shared/format.ts";
import KpiCard from "../components/KpiCard.tsx";
import { BarList, Donut } from "../components/SvgCharts.tsx";
import { comparisonHref } from "../components/links.ts";
import { define } from "../lib/dashboard/services.ts";
import { page } from "../lib/http/mod.ts";
import { dashboardStats, UNKNOWN_MACHINE } from "../lib/store/mod.ts";

/** Page metadata. */
export const meta = { title: "Home" };

/** Loads the statistics. */
export const handler = define.handlers({
  GET: (c) => page(dashboardStats(c.var.services.store.db)),
});

/** The Home view. */
export default define.page<typeof handler>(function Home({ data: s }) {
  const top = s.top_models_extended;
  const quants = Object.entries(s.quantization_distribution);
  const none = s.cached_models === 0;
  /** A speed figure, or "–" while there is none (not a measured 0). */
  const speed = (v: number | null) => none ? "–" : fixed(v);
  const unit = none ? undefined : "tok/s";
  return (
    <>
      <h1>Overview</h1>
      <section class="kpis">
        <KpiCard id="kpi-models" label="Cached models" value={String(s.cached_models)} />
        <KpiCard
          id="kpi-avg"
          label="Average speed"
          value={speed(s.speed_summary.avg)}
          unit={unit}
        />
        <KpiCard id="kpi-p50" label="P50" value={speed(s.speed_summary.p50)} unit={unit} />
        <KpiCard id="kpi-p95" label="P95" value={speed(s.speed_summary.p95)} unit={unit} />
        <KpiCard id="kpi-archs" label="Architectures" value={String(s.architecture_count)} />
        <KpiCard id="kpi-quants" label="Quantizations" value={String(s.quantization_count)} />
      </section>
      {!none && (
        <p class="hint" id="kpi-basis">
          Speeds: the newest result of each model variant, backend, workload and machine, each
          counted once.
        </p>
      )}
      {none
        ? (
          <p class="empty" id="home-empty">
            No results yet: start a benchmark on the <a href="/benchmark">Benchmark</a>{" "}
            page; its speeds, quantizations and most efficient models appear here.
          </p>
        )
        : (
          <section class="grid2">
            <div class="card">
              <h2>Top 10 by speed</h2>
              <BarList
                id="chart-top10"
                label="Top 10 models by tokens per second"
                items={top.map((m) => {
                  // The backend or the machine names a row only where the same variant and
                  // workload ran on two of them.
                  const twins = top.filter((o) =>
                    o !== m && o.model_key === m.model_key && o.workload === m.workload
                  );
                  return {
                    label: [
                      shortModelName(m.model_name),
                      m.quantization,
                      m.workload,
                      twins.some((o) => o.backend !== m.backend) ? `(${m.backend})` : null,
                      twins.some((o) => o.machine_name !== m.machine_name)
                        ? `on ${m.machine_name ?? UNKNOWN_MACHINE}`
                        : null,
                    ].filter(Boolean).join(" "),
                    title: m.model_key,
                    value: m.speed,
                    href: comparisonHref(m.model_key),
                  };
                })}
                format={(v) => `${fixed(v)} tok/s`}
              />
            </div>
            <div class="card">
              <h2>Quantizations</h2>
              <Donut
                id="chart-quants"
                label="Models per quantization"
                slices={quants.map(([label, value]) => ({ label, value }))}
                unit="models"
              />
            </div>
          </section>
        )}
      {!none && s.efficiency_top.length === 0 && (
        <section class="card">
          <h2>Most efficient (tokens/s per GiB)</h2>
          <p class="chart-empty" id="efficiency-empty">
            <span>
              No VRAM figure yet: memory is measured while the hardware is sampled. Run a benchmark
              with “Sample the hardware” <span class="flag">(--enable-profiling)</span>{" "}
              to rank the models by tokens/s per GiB.
            </span>
          </p>
        </section>
      )}
      {s.efficiency_top.length > 0 && (
        <section class="card">
          <h2>Most efficient (tokens/s per GiB)</h2>
          <div class="scroll" tabIndex={0} role="region" aria-label="Most efficient models">
            <table class="table">
              <thead>
                <tr>
                  <th>Model</th>
                  <th>Quant</th>
                  <th>tok/s/GiB</th>
                  <th>tok/s</th>
                  <th>VRAM MB</th>
                </tr>
              </thead>
              <tbody>
                {s.efficiency_top.map((m, i) => (
                  <tr key={i}>
                    <td>
                      <a href={comparisonHref(m.model_key)} title={m.model_key}>
                        {shortModelName(m.model_name)}
                      </a>
                    </td>
                    <td>{m.quantization ?? "–"}</td>
                    <td>{fixed(m.tokens_per_sec_per_gb, 2)}</td>
                    <td>{fixed(m.speed)}</td>
                    <td>{m.vram_mb}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </>
  );
});
