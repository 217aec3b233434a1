/**
 * The load curves of a model on its page: output tokens/s by concurrency (and by request rate),
 * one line per variant, and the levels as a table with the latency percentiles and the knee.
 *
 * @module
 */
import Chart from "../islands/Chart.tsx";
import { shortModelName } from "../lib/shared/model_name.ts";
import type { LoadCurve } from "../lib/store/mod.ts";
import { fixed } from "../lib/shared/format.ts";

const MODES = [
  ["concurrency", "by concurrency", "requests in flight"],
  ["rate", "by request rate", "requests per second offered"],
] as const;

/** Props of {@linkcode LoadCurveCard}. */
export interface LoadCurveCardProps {
  curves: LoadCurve[];
}

/** The card, or nothing when no variant has a load curve. */
export default function LoadCurveCard({ curves }: LoadCurveCardProps) {
  if (curves.length === 0) return null;
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
              label: shortModelName(c.model_key),
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
                <th>latency p50</th>
                <th>p99</th>
                <th>TTFT p99</th>
                <th>TPOT p99</th>
                <th>Knee</th>
              </tr>
            </thead>
            <tbody>
              {curves.flatMap((c) =>
                c.levels.map((l) => (
                  <tr key={`${c.result_id}-${l.id}`}>
                    <td title={c.model_key}>{shortModelName(c.model_key)}</td>
                    <td>{l.mode === "concurrency" ? `c=${l.level}` : `${l.level}/s`}</td>
                    <td>{`${l.ok}/${l.requests}`}</td>
                    <td>{fixed(l.output_tokens_per_sec as number | null)}</td>
                    <td>{fixed(l.requests_per_sec as number | null, 2)}</td>
                    <td>{fixed(l.goodput_rps as number | null, 2)}</td>
                    <td>{fixed(l.latency_ms_p50 as number | null, 0)} ms</td>
                    <td>{fixed(l.latency_ms_p99 as number | null, 0)} ms</td>
                    <td>{fixed(l.ttft_ms_p99 as number | null)} ms</td>
                    <td>{fixed(l.tpot_ms_p99 as number | null, 2)} ms</td>
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
