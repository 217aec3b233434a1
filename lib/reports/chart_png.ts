/**
 * Server-side chart images for the PDF: chart.js drawing on an @napi-rs/canvas canvas, on a white
 * background, with the report font registered, and point labels on scatter charts.
 *
 * @module
 */
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import { Chart, type ChartConfiguration, type Plugin, registerables } from "chart.js";
import { findFonts } from "./assets.ts";
import type { ChartSpec } from "./chart_specs.ts";

let ready = false;

function setup(): void {
  if (ready) return;
  const fonts = findFonts();
  GlobalFonts.registerFromPath(fonts.regular, "DejaVu Sans");
  GlobalFonts.registerFromPath(fonts.bold, "DejaVu Sans");
  Chart.register(...registerables);
  Chart.defaults.font.family = "DejaVu Sans";
  Chart.defaults.color = "#1f2937";
  // The images are drawn at 1000 px and shown about 370 pt wide: larger type stays readable.
  Chart.defaults.font.size = 17;
  Chart.defaults.plugins.title.font = { size: 22, weight: "bold" };
  ready = true;
}

const whiteBackground: Plugin = {
  id: "whiteBackground",
  beforeDraw(chart) {
    const ctx = chart.ctx;
    ctx.save();
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

const pointLabels: Plugin = {
  id: "pointLabels",
  afterDatasetsDraw(chart) {
    if ((chart.config as { type?: string }).type !== "scatter") return;
    const ctx = chart.ctx;
    ctx.save();
    ctx.font = "16px 'DejaVu Sans'";
    ctx.fillStyle = "#374151";
    chart.data.datasets.forEach((ds, i) => {
      chart.getDatasetMeta(i).data.forEach((point, j) => {
        const label = (ds.data[j] as { label?: string } | undefined)?.label;
        if (!label) return;
        const width = ctx.measureText(label).width;
        const right = point.x + 8 + width > chart.chartArea.right;
        ctx.fillText(label, right ? point.x - 8 - width : point.x + 8, point.y - 6);
      });
    });
    ctx.restore();
  },
};

/** Options of {@linkcode renderChartPng}. */
export interface PngOptions {
  /** @default 1000 */
  width?: number;
  /** @default 560 */
  height?: number;
}

/** Renders a chart specification to PNG bytes. */
export async function renderChartPng(
  spec: ChartSpec,
  options: PngOptions = {},
): Promise<Uint8Array> {
  setup();
  const canvas = createCanvas(options.width ?? 1000, options.height ?? 560);
  const config = structuredClone(spec.config) as unknown as ChartConfiguration;
  config.options = {
    ...config.options,
    responsive: false,
    animation: false,
    devicePixelRatio: 1,
  };
  config.plugins = [whiteBackground, pointLabels];
  // chart.js accepts any canvas-like object; @napi-rs/canvas implements the 2D context it uses.
  const chart = new Chart(canvas as unknown as HTMLCanvasElement, config);
  try {
    return await canvas.encode("png");
  } finally {
    chart.destroy();
  }
}
