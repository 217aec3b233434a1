/**
 * The PDF and HTML exporters, loaded when a report of that format is written: importing the
 * reports (the command line, the dashboard) loads neither pdfkit and its fonts nor the HTML
 * renderer, and a JSON or CSV report never does.
 *
 * @module
 */
import type { ReportData } from "./model.ts";

/** Renders the PDF report (pdf.ts, loaded on first use). */
export async function renderPdf(data: ReportData): Promise<Uint8Array> {
  return await (await import("./pdf.ts")).renderPdf(data);
}

/** Renders the self-contained HTML report (html.tsx, loaded on first use). */
export async function renderHtml(data: ReportData): Promise<string> {
  return await (await import("./html.tsx")).renderHtml(data);
}
