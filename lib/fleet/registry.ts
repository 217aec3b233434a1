/**
 * The fleet's register of agents, a table in the shared PostgreSQL database: each agent's name,
 * the machine it runs on, its last heartbeat and its current job with the job's latest status.
 * Times are the database's (`now()`), so machines whose clocks disagree still agree on who is live.
 *
 * @module
 */
import { ConflictError } from "../error.ts";

/** What the register runs its SQL on (a `pg` Pool or Client). */
export interface SqlClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** One agent as the register shows it. */
export interface AgentRow {
  name: string;
  /** The machine's identity (id, host name, OS, CPU, RAM, GPUs), as the agent described it. */
  machine: Record<string, unknown>;
  /** The agent's process (one per start): a restarted agent gets a new one. */
  instance: string;
  /** The owner token of the results the agent's process writes (lib/store/owner.ts). */
  owner: string | null;
  startedAt: string;
  heartbeatAt: string;
  /** Whether a heartbeat came within the live window. */
  live: boolean;
  /** Stopped on purpose (Ctrl-C); null while it runs or when it was killed. */
  stoppedAt: string | null;
  job: { id: string; args: string[]; startedAt: string } | null;
  /** The current job's latest status snapshot (the dashboard's status shape). */
  status: Record<string, unknown> | null;
}

/** The register, in the store's own PostgreSQL schema (pg-boss keeps its queues in `pgboss`). */
const TABLE = "localbench.fleet_agents";

const SCHEMA = `
  CREATE SCHEMA IF NOT EXISTS localbench;
  CREATE TABLE IF NOT EXISTS ${TABLE} (
    name TEXT PRIMARY KEY,
    machine_json TEXT NOT NULL,
    instance TEXT NOT NULL,
    owner TEXT,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    stopped_at TIMESTAMPTZ,
    job_id TEXT,
    job_args_json TEXT,
    job_started_at TIMESTAMPTZ,
    status_json TEXT
  )`;

/** The register of agents. */
export class FleetRegistry {
  readonly #sql: SqlClient;
  readonly #liveSeconds: number;

  /** `liveSeconds`: how recent a heartbeat keeps an agent live. @default 30 */
  constructor(sql: SqlClient, options: { liveSeconds?: number } = {}) {
    this.#sql = sql;
    this.#liveSeconds = options.liveSeconds ?? 30;
  }

  /** Creates the table when the database has none (idempotent; several agents may race). */
  async ensureSchema(): Promise<void> {
    try {
      await this.#sql.query(SCHEMA);
    } catch (err) {
      // Two agents creating it at the same moment: the loser's catalog insert collides.
      const code = (err as { code?: string }).code;
      if (code !== "23505" && code !== "42P07") throw err;
    }
  }

  /**
   * Registers the agent `name` as `instance`; a live agent of that name elsewhere is a conflict
   * (two machines cannot take the same name's jobs).
   */
  async register(
    name: string,
    instance: string,
    machine: Record<string, unknown>,
    owner: string | null = null,
  ): Promise<void> {
    const { rows } = await this.#sql.query(
      `INSERT INTO ${TABLE} AS a (name, machine_json, instance, owner) VALUES ($1, $2, $3, $5)
       ON CONFLICT (name) DO UPDATE SET machine_json = EXCLUDED.machine_json,
         instance = EXCLUDED.instance, owner = EXCLUDED.owner, started_at = now(),
         heartbeat_at = now(),
         stopped_at = NULL, job_id = NULL, job_args_json = NULL, job_started_at = NULL,
         status_json = NULL
       WHERE a.stopped_at IS NOT NULL
          OR a.heartbeat_at < now() - make_interval(secs => $4)
          OR a.instance = EXCLUDED.instance
       RETURNING name`,
      [name, JSON.stringify(machine), instance, this.#liveSeconds, owner],
    );
    if (rows.length === 0) {
      const other = (await this.list()).find((a) => a.name === name);
      const host = String(other?.machine.hostname ?? "another machine");
      throw new ConflictError(
        `Cannot start the agent '${name}': an agent of that name is live on ${host} ` +
          `(last heartbeat ${other?.heartbeatAt ?? "just now"}); choose another --name`,
        { code: "agent_name_taken" },
      );
    }
  }

  /** A heartbeat; false when another instance has taken the name meanwhile. */
  async heartbeat(name: string, instance: string): Promise<boolean> {
    const { rows } = await this.#sql.query(
      `UPDATE ${TABLE} SET heartbeat_at = now() WHERE name = $1 AND instance = $2 RETURNING name`,
      [name, instance],
    );
    return rows.length > 0;
  }

  /** The agent's current job (null: none), its status cleared. */
  async setJob(
    name: string,
    instance: string,
    job: { id: string; args: string[] } | null,
  ): Promise<void> {
    await this.#sql.query(
      `UPDATE ${TABLE} SET job_id = $3, job_args_json = $4,
         job_started_at = CASE WHEN $3::text IS NULL THEN NULL ELSE now() END, status_json = NULL
       WHERE name = $1 AND instance = $2`,
      [name, instance, job?.id ?? null, job ? JSON.stringify(job.args) : null],
    );
  }

  /** The current job's latest status snapshot. */
  async setStatus(name: string, instance: string, status: Record<string, unknown>): Promise<void> {
    await this.#sql.query(
      `UPDATE ${TABLE} SET status_json = $3 WHERE name = $1 AND instance = $2`,
      [name, instance, JSON.stringify(status)],
    );
  }

  /** The agent stopped on purpose. */
  async stopped(name: string, instance: string): Promise<void> {
    await this.#sql.query(
      `UPDATE ${TABLE} SET stopped_at = now(), job_id = NULL, job_args_json = NULL,
         job_started_at = NULL WHERE name = $1 AND instance = $2`,
      [name, instance],
    );
  }

  /** Every agent, live ones first, then by name. */
  async list(): Promise<AgentRow[]> {
    const { rows } = await this.#sql.query(
      `SELECT name, machine_json, instance, owner, started_at, heartbeat_at, stopped_at, job_id,
         job_args_json, job_started_at, status_json,
         (stopped_at IS NULL AND heartbeat_at >= now() - make_interval(secs => $1)) AS live
       FROM ${TABLE} ORDER BY live DESC, name`,
      [this.#liveSeconds],
    );
    return rows.map(agentRow);
  }
}

const iso = (v: unknown): string => v instanceof Date ? v.toISOString() : String(v);

function agentRow(r: Record<string, unknown>): AgentRow {
  return {
    name: String(r.name),
    machine: JSON.parse(String(r.machine_json)),
    instance: String(r.instance),
    owner: r.owner === null || r.owner === undefined ? null : String(r.owner),
    startedAt: iso(r.started_at),
    heartbeatAt: iso(r.heartbeat_at),
    live: r.live === true,
    stoppedAt: r.stopped_at === null ? null : iso(r.stopped_at),
    job: r.job_id === null ? null : {
      id: String(r.job_id),
      args: JSON.parse(String(r.job_args_json ?? "[]")),
      startedAt: iso(r.job_started_at),
    },
    status: r.status_json === null ? null : JSON.parse(String(r.status_json)),
  };
}
