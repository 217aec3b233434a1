/**
 * The machines of a report: each result names the machine it ran on (its host name, or "unknown
 * machine" for a result stored before machines were recorded or imported from another tool),
 * and the report describes each machine as the result recorded it at run time (`system_json`):
 * OS, CPU and cores, memory, GPUs and drivers, model server and version.
 *
 * @module
 */
import { UNKNOWN_MACHINE } from "../store/mod.ts";
import type { ReportEntry } from "./model.ts";

/** One machine of a report, described as its newest result there recorded it. */
export interface ReportMachine {
  id: string | null;
  name: string;
  os: string | null;
  cpu: string | null;
  ram_gb: number | null;
  gpus: string | null;
  model_server: string | null;
  results: number;
}

const str = (v: unknown) => typeof v === "string" && v !== "" ? v : null;

/** The name of the machine a result ran on. */
export function machineName(e: ReportEntry): string {
  return str(e.row.machine_name) ?? str(e.system?.hostname) ?? UNKNOWN_MACHINE;
}

function gpusOf(system: Record<string, unknown> | null): string | null {
  const list = Array.isArray(system?.gpus) ? system.gpus : [];
  const names = list.filter((g) => g && typeof g === "object").map((g) => {
    const { name, driver } = g as { name?: unknown; driver?: unknown };
    return str(driver) ? `${name} (${driver})` : String(name);
  });
  return names.length ? names.join(" + ") : null;
}

/** The machines of the entries, in the order of their first entry. */
export function reportMachines(entries: readonly ReportEntry[]): ReportMachine[] {
  const byId = new Map<string, ReportMachine>();
  for (const e of entries) {
    const id = str(e.row.machine_id);
    const key = id ?? "";
    const known = byId.get(key);
    if (known) {
      known.results++;
      continue;
    }
    const s = id === null ? null : e.system;
    const cores = typeof s?.cpu_cores === "number" ? ` × ${s.cpu_cores} cores` : "";
    const server = [str(s?.model_server), str(s?.model_server_version)].filter(Boolean);
    byId.set(key, {
      id,
      name: machineName(e),
      os: str(s?.os),
      cpu: str(s?.cpu_model) ? `${s!.cpu_model}${cores}` : null,
      ram_gb: typeof s?.ram_gb === "number" ? s.ram_gb : null,
      gpus: gpusOf(s),
      model_server: server.length ? server.join(", version ") : null,
      results: 1,
    });
  }
  return [...byId.values()];
}

/** Each machine as a name and one line of text (HTML and PDF key-value tables). */
export function machinePairs(entries: readonly ReportEntry[]): [string, string][] {
  return reportMachines(entries).map((m) => {
    if (m.id === null) {
      return [m.name, `${m.results} result(s) recorded without their machine`];
    }
    const parts = [
      m.os,
      m.cpu,
      m.ram_gb === null ? null : `${m.ram_gb} GiB RAM`,
      m.gpus ?? "no GPU found",
      m.model_server,
      `id ${m.id}`,
      `${m.results} result(s)`,
    ].filter(Boolean);
    return [m.name, parts.join(" · ")];
  });
}
