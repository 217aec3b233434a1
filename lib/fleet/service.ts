/**
 * The dashboard's side of the fleet: the agents as `GET /api/fleet` lists them (the register
 * joined with each agent's latest job from its queue), sending a benchmark to an agent, and the
 * agents' live events (NOTIFY) fanned out to the dashboard's event streams. Its pg-boss instance
 * also supervises the queues: a job whose agent stopped sending heartbeats is failed here.
 *
 * @module
 */
import type pg from "pg";
import { EventHub } from "../dashboard/events.ts";
import { connectionOf } from "../store/mod.ts";
import { ConflictError, NotFoundError } from "../error.ts";
import { checkAgentName } from "./names.ts";
import { type FleetProgress, listenProgress } from "./progress.ts";
import { type FleetJobInfo, FleetQueue, type FleetQueueOptions } from "./queue.ts";
import { type AgentRow, FleetRegistry, type SqlClient } from "./registry.ts";

/** An agent as `GET /api/fleet` shows it. */
export interface FleetAgentView {
  name: string;
  machine: Record<string, unknown>;
  live: boolean;
  last_heartbeat: string;
  started_at: string;
  stopped_at: string | null;
  /** The job under way (its latest status), or null. */
  current_job: (AgentRow["job"] & { status: Record<string, unknown> | null }) | null;
  /** The newest job sent to it, whatever its state. */
  last_job: FleetJobInfo | null;
  /** What happened to a job under way when the agent went silent (null otherwise). */
  lost: string | null;
}

/** Options of {@linkcode FleetService.start}. */
export interface FleetServiceOptions extends FleetQueueOptions {
  /** The database's URL (for the queue, the listener and the register's pool). */
  url: string;
  /** A pool for the register. @default one of its own on `url`, closed with the service */
  sql?: SqlClient;
  /**
   * Marks the results an agent killed mid-job left running as interrupted (the store's
   * `interruptOwner`); their completed runs stay. @default none
   */
  onLost?: (owner: string) => number;
  /** Seconds a heartbeat keeps an agent live. @default 30 */
  liveSeconds?: number;
}

/** The fleet as the dashboard drives it. */
export class FleetService {
  /** Every agent's live events, each with its agent's name. */
  readonly events = new EventHub<FleetProgress>({ backlog: 500 });
  readonly #queue: FleetQueue;
  readonly #registry: FleetRegistry;
  readonly #unlisten: () => Promise<void>;
  readonly #onLost: (owner: string) => number;
  /** Owners already marked lost: a process's token is never reused, so once is enough. */
  readonly #lostOwners = new Set<string>();
  readonly #ownPool: { end(): Promise<void> } | null;

  private constructor(
    queue: FleetQueue,
    registry: FleetRegistry,
    unlisten: () => Promise<void>,
    options: FleetServiceOptions,
    ownPool: { end(): Promise<void> } | null,
  ) {
    this.#queue = queue;
    this.#registry = registry;
    this.#unlisten = unlisten;
    this.#onLost = options.onLost ?? (() => 0);
    this.#ownPool = ownPool;
  }

  /** Connects to the fleet's database (creating the register and pg-boss's schema if needed). */
  static async start(options: FleetServiceOptions): Promise<FleetService> {
    let ownPool: pg.Pool | null = null;
    if (!options.sql) {
      const { default: { Pool } } = await import("pg"); // with the fleet only
      ownPool = new Pool({ ...connectionOf(options.url), max: 3 });
      ownPool.on("error", (err: unknown) => options.onError?.(err));
    }
    const sql = options.sql ?? ownPool!;
    const registry = new FleetRegistry(sql, { liveSeconds: options.liveSeconds });
    let queue: FleetQueue;
    try {
      await registry.ensureSchema();
      queue = await FleetQueue.start(options.url, options);
    } catch (err) {
      await ownPool?.end();
      throw err;
    }
    let service: FleetService | null = null;
    const unlisten = await listenProgress(
      options.url,
      (p) => service?.events.publish(p),
      options.onError,
    ).catch(async (err) => {
      await queue.stop({ graceful: false });
      await ownPool?.end();
      throw err;
    });
    service = new FleetService(queue, registry, unlisten, options, ownPool);
    return service;
  }

  /** The agents, live ones first. */
  async agents(): Promise<FleetAgentView[]> {
    const rows = await this.#registry.list();
    return await Promise.all(rows.map(async (a) => {
      const [last] = await this.#queue.jobs(a.name, 1).catch(() => []);
      const lost = lostText(a, last ?? null);
      if (lost && a.owner && !this.#lostOwners.has(a.owner)) {
        this.#onLost(a.owner);
        this.#lostOwners.add(a.owner);
      }
      return {
        name: a.name,
        machine: a.machine,
        live: a.live,
        last_heartbeat: a.heartbeatAt,
        started_at: a.startedAt,
        stopped_at: a.stoppedAt,
        current_job: a.job && { ...a.job, status: a.status },
        last_job: last ?? null,
        lost,
      };
    }));
  }

  /** The jobs sent to `name`, newest first. */
  async jobs(name: string, limit = 20): Promise<FleetJobInfo[]> {
    await this.#agent(name);
    return await this.#queue.jobs(name, limit);
  }

  /**
   * Sends a benchmark (`args`) to the live agent `name`; it starts when the agent is free.
   * An unknown name is a `NotFoundError`, an agent that is not live a `ConflictError`.
   */
  async start(name: string, args: string[]): Promise<{ machine: string; job_id: string }> {
    const agent = await this.#agent(name);
    if (!agent.live) {
      throw new ConflictError(
        `Cannot start on '${name}': the agent is not running (last heartbeat ` +
          `${agent.heartbeatAt}); start it with deno task agent -- --name ${name}`,
        { code: "agent_offline" },
      );
    }
    return { machine: name, job_id: await this.#queue.submit(name, args) };
  }

  /** Stops listening and closes the connections. */
  async close(): Promise<void> {
    await this.#unlisten();
    await this.#queue.stop({ graceful: false });
    await this.#ownPool?.end();
  }

  async #agent(name: string): Promise<AgentRow> {
    checkAgentName(name);
    const agent = (await this.#registry.list()).find((a) => a.name === name);
    if (!agent) {
      throw new NotFoundError(`No agent named '${name}' has registered with this store`, {
        code: "agent_not_found",
      });
    }
    return agent;
  }
}

/** What the dashboard says of a job whose agent went silent under it. */
function lostText(agent: AgentRow, last: FleetJobInfo | null): string | null {
  if (agent.live || agent.stoppedAt !== null || !agent.job) return null;
  const job = last?.id === agent.job.id ? last : null;
  const state = job?.state === "failed"
    ? "the job failed (no heartbeat from the agent)"
    : "the job fails once the queue sees no heartbeat";
  const at = agent.heartbeatAt.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC");
  return `The agent stopped answering at ${at} during job ${agent.job.id}: ` +
    `${state}; what it was measuring is marked interrupted, the runs it stored before are kept`;
}
