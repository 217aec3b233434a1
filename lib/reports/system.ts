/**
 * System information recorded in the reports: this machine (OS, CPU count, memory, Deno) and the
 * GPU and model-server versions stored with the results.
 *
 * @module
 */
import type { ReportEntry } from "./model.ts";

function distinct(entries: readonly ReportEntry[], column: string): string[] {
  return [
    ...new Set(
      entries.map((e) => e.row[column]).filter((v): v is string =>
        typeof v === "string" && v !== ""
      ),
    ),
  ];
}

/** System information of this machine and of the results. */
export function systemInfo(entries: readonly ReportEntry[]): Record<string, unknown> {
  let memoryGb: number | null = null;
  try {
    memoryGb = Deno.systemMemoryInfo().total / 1024 ** 3;
  } catch {
    // not permitted (--allow-sys missing): leave it out
  }
  let osRelease: string | null = null;
  try {
    osRelease = Deno.osRelease();
  } catch {
    // not permitted
  }
  const stored = entries.map((e) => e.system).find((s) => s !== null) ?? null;
  return {
    os: Deno.build.os,
    os_release: osRelease,
    arch: Deno.build.arch,
    cpu_count: navigator.hardwareConcurrency ?? null,
    memory_gb: memoryGb === null ? null : Math.round(memoryGb * 10) / 10,
    deno: Deno.version.deno,
    gpu: distinct(entries, "gpu_type"),
    model_server_versions: distinct(entries, "server_version"),
    ...(stored ? { stored } : {}),
  };
}
