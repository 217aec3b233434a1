/**
 * The PDF's charts, drawn as vector graphics with pdfkit from the same chart specifications the
 * HTML report hands to chart.js (chart_specs.ts): horizontal bars, a scatter with point labels,
 * and lines. Text uses the report's embedded font, so it stays sharp and searchable; there is no
 * image to render, encode and decode.
 *
 * @module
 */
import type { ChartSpec } from "./chart_specs.ts";
import type { PdfDoc } from "./pdf_layout.ts";
import { niceTicks, tickText } from "./ticks.ts";

interface Dataset {
  label?: string;
  data: (number | null | { x: number; y: number; label?: string })[];
  backgroundColor?: string;
  borderColor?: string;
}

interface Config {
  type: "bar" | "scatter" | "line";
  data: { labels?: string[]; datasets: Dataset[] };
  options?: {
    indexAxis?: "x" | "y";
    scales?: Record<string, { title?: { text?: string }; beginAtZero?: boolean }>;
  };
}

/** The area a chart is drawn into, in points. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const INK = "#1f2937";
const MUTED = "#4b5563";
const GRID = "#e5e7eb";
const TICK = 6.5;

const colorOf = (ds: Dataset) => ds.backgroundColor ?? ds.borderColor ?? INK;

/** Shortens `text` with "…" until it fits `width` at the current font. */
function fit(doc: PdfDoc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let t = text;
  while (t.length > 1 && doc.widthOfString(`${t}…`) > width) t = t.slice(0, -1);
  return `${t}…`;
}

function title(doc: PdfDoc, spec: ChartSpec, box: Box): number {
  doc.font("Bold").fontSize(9.5).fillColor(INK);
  doc.text(spec.title, box.x, box.y, { width: box.width, align: "center", lineBreak: false });
  return box.y + 15;
}

/** A legend line (datasets with labels) centred at `y`; returns the y below it. */
function legend(doc: PdfDoc, datasets: Dataset[], box: Box, y: number): number {
  const items = datasets.filter((d) => d.label);
  if (items.length === 0) return y;
  doc.font("Body").fontSize(TICK);
  const widths = items.map((d) => 12 + doc.widthOfString(d.label!) + 10);
  let x = box.x + Math.max(0, (box.width - widths.reduce((a, b) => a + b, 0)) / 2);
  items.forEach((d, i) => {
    doc.rect(x, y + 1, 8, 6).fill(colorOf(d));
    doc.fillColor(MUTED).text(d.label!, x + 11, y, { lineBreak: false });
    x += widths[i]!;
  });
  return y + 12;
}

/** The numeric axis: grid lines and tick labels along x (bottom) or y (left). */
function valueAxis(
  doc: PdfDoc,
  plot: Box,
  ticks: number[],
  along: "x" | "y",
  label: string | undefined,
): void {
  const [lo, hi] = [ticks[0]!, ticks.at(-1)!];
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 1;
  doc.font("Body").fontSize(TICK).lineWidth(0.4);
  for (const t of ticks) {
    const f = hi === lo ? 0 : (t - lo) / (hi - lo);
    const text = tickText(t, step);
    if (along === "x") {
      const x = plot.x + f * plot.width;
      doc.moveTo(x, plot.y).lineTo(x, plot.y + plot.height).strokeColor(GRID).stroke();
      doc.fillColor(MUTED).text(text, x - 20, plot.y + plot.height + 2, {
        width: 40,
        align: "center",
        lineBreak: false,
      });
    } else {
      const y = plot.y + plot.height - f * plot.height;
      doc.moveTo(plot.x, y).lineTo(plot.x + plot.width, y).strokeColor(GRID).stroke();
      doc.fillColor(MUTED).text(text, plot.x - 32, y - 3, {
        width: 29,
        align: "right",
        lineBreak: false,
      });
    }
  }
  if (!label) return;
  doc.font("Body").fontSize(7).fillColor(INK);
  if (along === "x") {
    doc.text(label, plot.x, plot.y + plot.height + 11, {
      width: plot.width,
      align: "center",
      lineBreak: false,
    });
  } else {
    const cx = plot.x - 38;
    const cy = plot.y + plot.height / 2;
    doc.save().rotate(-90, { origin: [cx, cy] });
    doc.text(label, cx - plot.height / 2, cy - 4, {
      width: plot.height,
      align: "center",
      lineBreak: false,
    });
    doc.restore();
  }
}

function scale(ticks: number[], v: number): number {
  const [lo, hi] = [ticks[0]!, ticks.at(-1)!];
  return hi === lo ? 0 : (v - lo) / (hi - lo);
}

function horizontalBars(doc: PdfDoc, c: Config, box: Box, top: number): void {
  const labels = c.data.labels ?? [];
  const ds = c.data.datasets[0];
  const values = (ds?.data ?? []).map((v) => (typeof v === "number" ? v : 0));
  const xAxis = c.options?.scales?.x;
  doc.font("Body").fontSize(TICK);
  const labelWidth = Math.min(
    box.width * 0.38,
    Math.max(30, ...labels.map((l) => doc.widthOfString(l) + 6)),
  );
  const plot = {
    x: box.x + labelWidth,
    y: top,
    width: box.width - labelWidth - 12,
    height: box.y + box.height - top - 22,
  };
  const ticks = niceTicks(xAxis?.beginAtZero ? 0 : Math.min(...values), Math.max(0, ...values));
  valueAxis(doc, plot, ticks, "x", xAxis?.title?.text);
  const band = plot.height / Math.max(1, labels.length);
  labels.forEach((label, i) => {
    const y = plot.y + i * band;
    const w = scale(ticks, values[i] ?? 0) * plot.width;
    doc.rect(plot.x, y + band * 0.15, Math.max(0.5, w), band * 0.7).fill(
      colorOf(ds ?? { data: [] }),
    );
    doc.font("Body").fontSize(TICK).fillColor(INK);
    doc.text(fit(doc, label, labelWidth - 6), box.x, y + band / 2 - 3.5, {
      width: labelWidth - 4,
      align: "right",
      lineBreak: false,
    });
  });
}

/** The points of a dataset: `{x, y}` as given, or a number per category (x = its index). */
function points(ds: Dataset): { x: number; y: number; label?: string }[] {
  return ds.data.flatMap((v, i) => {
    if (v === null) return [];
    return typeof v === "number" ? [{ x: i, y: v }] : [v];
  });
}

function xyChart(doc: PdfDoc, c: Config, box: Box, top: number): void {
  const labels = c.data.labels ?? [];
  const line = c.type === "line";
  const sets = c.data.datasets.map((d) => ({ d, pts: points(d) }));
  const all = sets.flatMap((s) => s.pts);
  const { x: xs, y: ys } = c.options?.scales ?? {};
  const yTicks = niceTicks(
    ys?.beginAtZero ? 0 : Math.min(...all.map((p) => p.y)),
    Math.max(0, ...all.map((p) => p.y)),
  );
  const plot = {
    x: box.x + 44,
    y: top + 4,
    width: box.width - 56,
    height: box.y + box.height - top - 26,
  };
  valueAxis(doc, plot, yTicks, "y", ys?.title?.text);
  let xOf: (x: number) => number;
  if (line) {
    // Categories (report ids), evenly spaced in the middle of equal bands.
    const band = plot.width / Math.max(1, labels.length);
    xOf = (i) => plot.x + (i + 0.5) * band;
    doc.font("Body").fontSize(TICK).fillColor(MUTED);
    labels.forEach((l, i) =>
      doc.text(fit(doc, l, band - 4), xOf(i) - band / 2, plot.y + plot.height + 2, {
        width: band,
        align: "center",
        lineBreak: false,
      })
    );
    if (xs?.title?.text) {
      doc.fontSize(7).fillColor(INK).text(xs.title.text, plot.x, plot.y + plot.height + 11, {
        width: plot.width,
        align: "center",
        lineBreak: false,
      });
    }
  } else {
    const xTicks = niceTicks(
      xs?.beginAtZero ? 0 : Math.min(...all.map((p) => p.x)),
      Math.max(0, ...all.map((p) => p.x)),
    );
    valueAxis(doc, plot, xTicks, "x", xs?.title?.text);
    xOf = (x) => plot.x + scale(xTicks, x) * plot.width;
  }
  const yOf = (y: number) => plot.y + plot.height - scale(yTicks, y) * plot.height;
  for (const { d, pts } of sets) {
    const color = colorOf(d);
    if (line && pts.length > 1) {
      doc.moveTo(xOf(pts[0]!.x), yOf(pts[0]!.y));
      for (const p of pts.slice(1)) doc.lineTo(xOf(p.x), yOf(p.y));
      doc.lineWidth(1.2).strokeColor(color).stroke();
    }
    for (const p of pts) doc.circle(xOf(p.x), yOf(p.y), line ? 2 : 3).fill(color);
  }
  if (line) return;
  doc.font("Body").fontSize(TICK).fillColor(MUTED);
  for (const p of all) {
    if (!p.label) continue;
    const w = Math.min(doc.widthOfString(p.label), 120);
    const right = xOf(p.x) + 5 + w > plot.x + plot.width;
    doc.text(fit(doc, p.label, 120), right ? xOf(p.x) - 5 - w : xOf(p.x) + 5, yOf(p.y) - 8, {
      lineBreak: false,
    });
  }
}

/** Draws one chart into `box`. */
export function drawChart(doc: PdfDoc, spec: ChartSpec, box: Box): void {
  const c = spec.config as unknown as Config;
  doc.save();
  let top = title(doc, spec, box);
  if (c.type !== "bar") top = legend(doc, c.data.datasets, box, top);
  if (c.type === "bar") horizontalBars(doc, c, box, top);
  else xyChart(doc, c, box, top);
  doc.restore();
  doc.font("Body").fillColor(INK).lineWidth(1);
}
