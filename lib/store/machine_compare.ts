/**
 * One model on each machine: the newest finished result of each of its identities (variant,
 * backend, parameters, machine) with the machine's description, for the comparison page's
 * "on each machine" chart. Read from `identity_latest` (one row per identity), never the history.
 *
 * @module
 */
import type { StoreDb } from "./database.ts";
import { workloadText } from "./identity.ts";
import { labelled } from "./machines.ts";
import { UNKNOWN_MACHINE } from "../shared/machine.ts";
import { plain } from "./rows.ts";

/** The newest result of one identity of the model, on its machine. */
export interface MachineResult {
  /** null: an unknown machine. */
  machine_id: string | null;
  /** The host name (with the id's first digits where two share it), or "unknown machine". */
  machine_name: string;
  gpus: string | null;
  cpu_model: string | null;
  ram_gb: number | null;
  model_server_version: string | null;
  model_key: string;
  quantization: string | null;
  backend: string;
  params_hash: string;
  /** The workload in words, null for the configured prompt. */
  workload: string | null;
  tokens_per_sec_mean: number | null;
  ttft_ms_mean: number | null;
  finished_at: string | null;
  /** Finished results of the identity. */
  results: number;
}

/** The model's identities on each machine (`model_name` or a variant's `model_key`). */
export function modelOnMachines(db: StoreDb, name: string): MachineResult[] {
  const rows = db.prepare(
    `SELECT r.machine_id, mc.hostname, mc.gpus, mc.cpu_model, mc.ram_gb,
       mc.model_server_version, m.model_key, m.quantization, r.backend, r.params_hash,
       r.params_json, r.tokens_per_sec_mean, r.ttft_ms_mean, r.finished_at, l.ok_results
     FROM models m CROSS JOIN identity_latest l ON l.model_id = m.id
       JOIN results r ON r.id = l.result_id LEFT JOIN machines mc ON mc.id = r.machine_id
     WHERE m.model_name = :name OR m.model_key = :name
     ORDER BY m.model_key, r.backend, r.params_hash, mc.hostname NULLS FIRST`,
  ).all({ name }).map((r) =>
    plain<
      Omit<MachineResult, "machine_name" | "workload" | "results"> & {
        hostname: string | null;
        params_json: string;
        ok_results: number;
      }
    >(r)
  );
  const known = labelled(
    [...new Map(rows.filter((r) => r.machine_id !== null).map((r) => [r.machine_id!, r]))]
      .map(([id, r]) => ({ id, hostname: r.hostname ?? id })),
  );
  const names = new Map(known.map((m) => [m.id, m.label]));
  return rows.map(({ hostname: _, params_json, ok_results, ...r }) => ({
    ...r,
    machine_name: r.machine_id === null ? UNKNOWN_MACHINE : names.get(r.machine_id) ?? r.machine_id,
    workload: workloadText(params_json),
    results: ok_results,
  }));
}
