/**
 * Chart.js configurations of the reports, as plain JSON-ready objects: the HTML report hands them
 * to chart.js in the browser and the PDF renders the same ones to PNG on the server.
 *
 * @module
 */
import { displayName, num, type ReportData, type ReportEntry, sizeGb } from "./model.ts";
import { trendKey } from "./compare.ts";
import { compareNames } from "./rank.ts";

/** A chart.js configuration without functions (so it can be embedded as JSON). */
export interface ChartSpec {
  /** Element id and file-name stem. */
  id: string;
  title: string;
  config: Record<string, unknown>;
}

/** Colours of datasets, in order. */
export const PALETTE = [
  "#2563eb",
  "#16a34a",
  "#ea580c",
  "#9333ea",
  "#dc2626",
  "#0891b2",
  "#ca8a04",
  "#db2777",
  "#4b5563",
  "#65a30d",
];

function axis(title: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: { display: true, text: title }, ...extra };
}

function topBy(entries: readonly ReportEntry[], column: string, n = 10): ReportEntry[] {
  return entries.filter((e) => num(e, column) !== null)
    .sort((a, b) => num(b, column)! - num(a, column)!).slice(0, n);
}

function barSpec(
  id: string,
  title: string,
  entries: readonly ReportEntry[],
  column: string,
  label: string,
  color: string,
): ChartSpec {
  const top = topBy(entries, column);
  return {
    id,
    title,
    config: {
      type: "bar",
      data: {
        labels: top.map(displayName),
        datasets: [{ label, data: top.map((e) => num(e, column)), backgroundColor: color }],
      },
      options: {
        indexAxis: "y",
        plugins: { legend: { display: false }, title: { display: true, text: title } },
        scales: { x: axis(label, { beginAtZero: true }) },
      },
    },
  };
}

function scatterSpec(entries: readonly ReportEntry[]): ChartSpec {
  const groups = new Map<string, { x: number; y: number; label: string }[]>();
  for (const e of entries) {
    const x = sizeGb(e);
    const y = num(e, "tokens_per_sec_mean");
    if (x === null || y === null) continue;
    const q = e.row.quantization ?? "unknown";
    groups.set(q, [...(groups.get(q) ?? []), { x, y, label: displayName(e) }]);
  }
  const title = "Speed vs. model size";
  return {
    id: "scatter",
    title,
    config: {
      type: "scatter",
      data: {
        datasets: [...groups.entries()].sort(([a], [b]) => compareNames(a, b)).map((
          [q, data],
          i,
        ) => ({
          label: q,
          data,
          backgroundColor: PALETTE[i % PALETTE.length],
          pointRadius: 6,
        })),
      },
      options: {
        plugins: { title: { display: true, text: title } },
        scales: {
          x: axis("Model size (GiB)", { beginAtZero: true }),
          y: axis("Tokens/s", { beginAtZero: true }),
        },
      },
    },
  };
}

function trendSpec(data: ReportData): ChartSpec | null {
  const keys = Object.keys(data.trend);
  if (keys.length === 0) return null;
  const labels = [...new Set(keys.flatMap((k) => data.trend[k]!.map((p) => p.report_id)))].sort();
  const names = new Map(data.entries.map((e) => [trendKey(e.row), displayName(e)]));
  const title = "Speed trend across reports";
  return {
    id: "trend",
    title,
    config: {
      type: "line",
      data: {
        labels,
        datasets: keys.sort().map((k, i) => ({
          label: names.get(k) ?? k,
          data: labels.map((l) =>
            data.trend[k]!.find((p) => p.report_id === l)?.tokens_per_sec ?? null
          ),
          borderColor: PALETTE[i % PALETTE.length],
          backgroundColor: PALETTE[i % PALETTE.length],
          spanGaps: true,
        })),
      },
      options: {
        plugins: { title: { display: true, text: title } },
        scales: { x: axis("Report"), y: axis("Tokens/s", { beginAtZero: true }) },
      },
    },
  };
}

/** The load curves of the entries for one mode: output tokens/s per level, one line per model. */
function loadCurveSpec(data: ReportData, mode: "concurrency" | "rate"): ChartSpec | null {
  const withCurve = data.entries.filter((e) => e.load_curve.some((l) => l.mode === mode));
  if (withCurve.length === 0) return null;
  const levels = [
    ...new Set(
      withCurve.flatMap((e) => e.load_curve.filter((l) => l.mode === mode).map((l) => l.level)),
    ),
  ].sort((a, b) => (a as number) - (b as number));
  const title = mode === "concurrency"
    ? "Load curve: output tokens/s by concurrency"
    : "Load curve: output tokens/s by request rate";
  return {
    id: `load-${mode}`,
    title,
    config: {
      type: "line",
      data: {
        labels: levels.map(String),
        datasets: withCurve.map((e, i) => ({
          label: displayName(e),
          data: levels.map((lv) =>
            (e.load_curve.find((l) => l.mode === mode && l.level === lv)
              ?.output_tokens_per_sec as number | null | undefined) ?? null
          ),
          borderColor: PALETTE[i % PALETTE.length],
          backgroundColor: PALETTE[i % PALETTE.length],
          spanGaps: true,
        })),
      },
      options: {
        plugins: { title: { display: true, text: title } },
        scales: {
          x: axis(mode === "concurrency" ? "Requests in flight" : "Requests per second offered"),
          y: axis("Output tokens/s (all requests)", { beginAtZero: true }),
        },
      },
    },
  };
}

/** The charts of a report: top-10 speed, speed vs. size, efficiency and (with a comparison) the trend. */
export function chartSpecs(data: ReportData): ChartSpec[] {
  const specs = [
    barSpec(
      "top10",
      "Top 10 by speed",
      data.entries,
      "tokens_per_sec_mean",
      "Tokens/s",
      PALETTE[0]!,
    ),
    scatterSpec(data.entries),
    barSpec(
      "efficiency",
      "Efficiency: tokens/s per GiB of model",
      data.entries,
      "tokens_per_sec_per_gb",
      "Tokens/s per GiB",
      PALETTE[1]!,
    ),
  ];
  const trend = data.compare ? trendSpec(data) : null;
  const curves = [loadCurveSpec(data, "concurrency"), loadCurveSpec(data, "rate")]
    .filter((c): c is ChartSpec => c !== null);
  return [...specs, ...(trend ? [trend] : []), ...curves];
}
