/**
 * The machines results ran on: one row per machine id with its newest description (host name,
 * OS, CPU, memory, GPUs and drivers, model server and version) and when it was first and last
 * seen; `results.machine_id` names the row (null: a result stored before machines were recorded,
 * or imported from another tool: an unknown machine, docs/decisions.md).
 *
 * @module
 */
import type { StoreDb } from "./database.ts";
import { plain } from "./rows.ts";
import { FINISHED } from "./status.ts";

/**
 * Schema 10's new table and column, in portable SQL (plain CREATE/ALTER/INDEX/VIEW, TEXT,
 * INTEGER and REAL): a PostgreSQL store runs the same statements. The `latest_results` view (the
 * newest finished result of each identity) gains the machine as `identity_latest` does.
 */
export const MACHINES_SQL = `
  CREATE TABLE machines (
    id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    os TEXT,
    arch TEXT,
    cpu_model TEXT,
    cpu_cores INTEGER,
    ram_gb REAL,
    gpus TEXT,
    model_server TEXT,
    model_server_version TEXT,
    description_json TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL
  );
  ALTER TABLE results ADD COLUMN machine_id TEXT REFERENCES machines(id);
  CREATE INDEX idx_results_machine_identity
    ON results (model_id, params_hash, machine_id, status, id);
  DROP VIEW latest_results;
  CREATE VIEW latest_results AS
    SELECT r.* FROM results r
    WHERE r.status IN ${FINISHED} AND r.id = (
      SELECT MAX(r2.id) FROM results r2
      WHERE r2.model_id = r.model_id AND r2.params_hash = r.params_hash
        AND COALESCE(r2.machine_id, '') = COALESCE(r.machine_id, '')
        AND r2.status IN ${FINISHED}
    );
`;

/** A machine as the benchmark captured it (lib/bench/machine.ts). */
export interface MachineRecord {
  id: string;
  hostname: string;
  os: string | null;
  arch: string | null;
  cpu_model: string | null;
  cpu_cores: number | null;
  ram_gb: number | null;
  gpus: { name: string; driver: string | null }[];
  model_server: string | null;
  model_server_version: string | null;
}

/** One row of `machines`, with how many finished results name it. */
export interface MachineRow {
  id: string;
  hostname: string;
  /** The host name, with the id's first digits when another machine has the same name. */
  label: string;
  os: string | null;
  cpu_model: string | null;
  cpu_cores: number | null;
  ram_gb: number | null;
  /** `NVIDIA RTX 4090 (nvidia 550.54) + …`, or null for none found. */
  gpus: string | null;
  model_server: string | null;
  model_server_version: string | null;
  first_seen: string;
  last_seen: string;
}

export { UNKNOWN_MACHINE } from "../shared/machine.ts";

/** The GPUs in words: `name (driver)` joined by ` + `; null for none. */
export function gpusText(gpus: MachineRecord["gpus"]): string | null {
  if (gpus.length === 0) return null;
  return gpus.map((g) => g.driver ? `${g.name} (${g.driver})` : g.name).join(" + ");
}

/** Records a machine (its newest description); `now` is an ISO time stamp. */
export function upsertMachine(db: StoreDb, m: MachineRecord, now: string): void {
  db.prepare(
    `INSERT INTO machines (id, hostname, os, arch, cpu_model, cpu_cores, ram_gb, gpus,
       model_server, model_server_version, description_json, first_seen, last_seen)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET hostname = excluded.hostname, os = excluded.os,
       arch = excluded.arch, cpu_model = excluded.cpu_model, cpu_cores = excluded.cpu_cores,
       ram_gb = excluded.ram_gb, gpus = excluded.gpus, model_server = excluded.model_server,
       model_server_version = excluded.model_server_version,
       description_json = excluded.description_json, last_seen = excluded.last_seen`,
  ).run(
    m.id,
    m.hostname,
    m.os,
    m.arch,
    m.cpu_model,
    m.cpu_cores,
    m.ram_gb,
    gpusText(m.gpus),
    m.model_server,
    m.model_server_version,
    JSON.stringify(m),
    now,
    now,
  );
}

/** Names machines: the host name, or `host (1a2b3c)` where two machines share it. */
export function labelled<T extends { id: string; hostname: string }>(
  rows: T[],
): (T & { label: string })[] {
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.hostname, (count.get(r.hostname) ?? 0) + 1);
  return rows.map((r) => ({
    ...r,
    label: count.get(r.hostname)! > 1 ? `${r.hostname} (${r.id.slice(0, 6)})` : r.hostname,
  }));
}

/** Every recorded machine, by host name. */
export function machines(db: StoreDb): MachineRow[] {
  const rows = db.prepare(
    `SELECT id, hostname, os, cpu_model, cpu_cores, ram_gb, gpus, model_server,
       model_server_version, first_seen, last_seen FROM machines ORDER BY hostname, id`,
  ).all().map((r) => plain<Omit<MachineRow, "label">>(r));
  return labelled(rows);
}

/** The label of each machine id (for rows that carry `machine_id`). */
export function machineLabels(db: StoreDb): Map<string, string> {
  return new Map(machines(db).map((m) => [m.id, m.label]));
}
