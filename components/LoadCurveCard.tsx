/**
 * The load curves of a model on its page: output tokens/s by concurrency (and by request rate),
 * one line per variant and machine (the machine named when there are several), and the levels as
 * a table with the latency percentiles and the knee.
 *
 * @module
 */
import Chart from "../islands/Chart.tsx";
import { shortModelName } from "../lib/shared/model_name.ts";
import { type LoadCurve, percentileLabel, type Row } from "../lib/store/mod.ts";
import { fixed } from "../lib/shared/format.ts";
import { UNKNOWN_MACHINE } from "../lib/shared/machine.ts";

const MODES = [
  ["concurrency", "by concurrency", "requests in flight"],
  ["rate", "by request rate", "requests per second offered"],
] as const;

/**
 * The percentile columns: without a stored `--percentiles`, latency p50 and p99, TTFT p99 and
 * TPOT p99 as before; with one (any variant's, their union), latency, TTFT and TPOT each at every
 * chosen percentile, one cell listing them (`29 / 52 / 61 ms`).
 */
function percentileColumns(
  curves: LoadCurve[],
): { head: string; cell: (l: Row) => string; list?: boolean }[] {
  // A figure the level lacks is a dash, without a unit.
  const ms = (v: unknown, digits: number) =>
    typeof v === "number" ? `${fixed(v, digits)} ms` : fixed(null);
  const chosen = [...new Set(curves.flatMap((c) => c.percentiles ?? []))].sort((a, b) => a - b);
  if (chosen.length === 0) {
    return [
      { head: "latency p50", cell: (l) => ms(l.latency_ms_p50, 0) },
      { head: "p99", cell: (l) => ms(l.latency_ms_p99, 0) },
      { head: "TTFT p99", cell: (l) => ms(l.ttft_ms_p99, 1) },
      { head: "TPOT p99", cell: (l) => ms(l.tpot_ms_p99, 2) },
    ];
  }
  const labels = chosen.map(percentileLabel);
  // A no-break space before each slash: a line may end after one, never before.
  const list = (metric: string, digits: number) => (l: Row) => {
    const values = labels.map((p) => l[`${metric}_${p}`]);
    if (values.every((v) => typeof v !== "number")) return fixed(null);
    return `${values.map((v) => fixed(v as number | null, digits)).join("\u00a0/ ")} ms`;
  };
  return [
    { head: `latency ${labels.join(" / ")}`, cell: list("latency_ms", 0), list: true },
    { head: `TTFT ${labels.join(" / ")}`, cell: list("ttft_ms", 1), list: true },
    { head: `TPOT ${labels.join(" / ")}`, cell: list("tpot_ms", 2), list: true },
  ];
}

/** A curve's name: the variant, and its machine when the curves come from several. */
function curveLabel(c: LoadCurve, severalMachines: boolean): string {
  const variant = shortModelName(c.model_key);
  return severalMachines ? `${variant} · on ${c.machine_name ?? UNKNOWN_MACHINE}` : variant;
}

/** Props of {@linkcode LoadCurveCard}. */
export interface LoadCurveCardProps {
  curves: LoadCurve[];
}

/** The card, or nothing when no variant has a load curve. */
export default function LoadCurveCard({ curves }: LoadCurveCardProps) {
  if (curves.length === 0) return null;
  const several = new Set(curves.map((c) => c.machine_id)).size > 1;
  const charts = MODES.map(([mode, title, axis]) => {
    const levels = [
      ...new Set(
        curves.flatMap((c) => c.levels.filter((l) => l.mode === mode).map((l) => l.level)),
      ),
    ].sort((a, b) => Number(a) - Number(b));
    if (levels.length === 0) return null;
    return (
      <div class="card" key={mode}>
        <h2>Load curve {title}</h2>
        <Chart
          id={`chart-load-${mode}`}
          label={`Output tokens per second ${title}`}
          spec={{
            type: "line",
            labels: levels.map(String),
            series: curves.map((c) => ({
              label: curveLabel(c, several),
              data: levels.map((lv) =>
                (c.levels.find((l) => l.mode === mode && l.level === lv)?.output_tokens_per_sec as
                  | number
                  | null
                  | undefined) ?? null
              ),
            })),
            xTitle: axis,
            yTitle: "output tokens/s",
          }}
        />
      </div>
    );
  }).filter((c) => c !== null);
  const percentiles = percentileColumns(curves);
  return (
    <>
      <section class="grid2">{charts}</section>
      <section class="card">
        <h2>Load levels</h2>
        <div class="scroll" tabIndex={0} role="region" aria-label="Load levels">
          <table class="table" id="load-levels">
            <thead>
              <tr>
                <th>Model</th>
                <th>Level</th>
                <th>OK</th>
                <th>out tok/s</th>
                <th>req/s</th>
                <th>goodput/s</th>
                {percentiles.map((c) => <th key={c.head}>{c.head}</th>)}
                <th>Knee</th>
              </tr>
            </thead>
            <tbody>
              {curves.flatMap((c) =>
                c.levels.map((l) => (
                  <tr key={`${c.result_id}-${l.id}`}>
                    <td title={c.model_key}>{curveLabel(c, several)}</td>
                    <td>{l.mode === "concurrency" ? `c=${l.level}` : `${l.level}/s`}</td>
                    <td>{`${l.ok}/${l.requests}`}</td>
                    <td>{fixed(l.output_tokens_per_sec as number | null)}</td>
                    <td>{fixed(l.requests_per_sec as number | null, 2)}</td>
                    <td>{fixed(l.goodput_rps as number | null, 2)}</td>
                    {percentiles.map((c) => (
                      <td key={c.head} class={c.list ? "list" : undefined}>{c.cell(l)}</td>
                    ))}
                    <td>{l.knee === 1 ? "knee" : ""}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
