/**
 * Hardware-profiling figures of the reports (stored as `<series>_{min,max,mean}`).
 *
 * @module
 */
import { num, type ReportEntry } from "./model.ts";

/** Profiled series and their display labels. */
export const HARDWARE_LABELS: readonly [string, string][] = [
  ["temp_c", "GPU °C"],
  ["power_w", "GPU W"],
  ["gpu_vram_gb", "VRAM GB"],
  ["cpu_percent", "CPU %"],
  ["ram_gb", "RAM GB"],
];

/** Whether any entry has profiling figures. */
export function hasProfiling(entries: readonly ReportEntry[]): boolean {
  return entries.some((e) => profiled(e));
}

/** Whether an entry has profiling figures. */
export function profiled(e: ReportEntry): boolean {
  return HARDWARE_LABELS.some(([s]) => num(e, `${s}_max`) !== null);
}
