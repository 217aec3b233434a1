/**
 * Hardware-profiling figures of the reports (stored as `<series>_{min,max,mean}`), and the notes
 * of each result (a sensor that could not be read, runs left out...), which the reports print.
 *
 * @module
 */
import { displayName, num, type ReportEntry } from "./model.ts";

/** Profiled series and their display labels. */
export const HARDWARE_LABELS: readonly [string, string][] = [
  ["temp_c", "GPU °C"],
  ["power_w", "GPU W"],
  ["gpu_vram_gb", "VRAM GiB"],
  ["cpu_percent", "CPU %"],
  ["ram_gb", "RAM GiB"],
];

/** Whether any entry has profiling figures. */
export function hasProfiling(entries: readonly ReportEntry[]): boolean {
  return entries.some((e) => profiled(e));
}

/** Whether an entry has profiling figures. */
export function profiled(e: ReportEntry): boolean {
  return HARDWARE_LABELS.some(([s]) => num(e, `${s}_max`) !== null);
}

/** The sentence of a profiling section without figures. */
export function noProfilingText(entries: readonly ReportEntry[]): string {
  return entries.some((e) => e.warnings.some((w) => / cannot be read: /.test(w)))
    ? "No sensor could be read for these results: see the notes."
    : "Profiling was not enabled for these results (--enable-profiling).";
}

/** The notes of every result that has some, as [model, one note a line]. */
export function resultNotes(entries: readonly ReportEntry[]): [string, string][] {
  return entries.filter((e) => e.warnings.length > 0).map((e) => [
    displayName(e),
    e.warnings.join("\n"),
  ]);
}
