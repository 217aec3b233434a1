/**
 * The fleet's job queue: one pg-boss queue per agent in the shared PostgreSQL database. The
 * dashboard sends a benchmark (its argument vector) to an agent's queue; the agent takes its jobs
 * one at a time and keeps each alive with pg-boss's job heartbeat, so a job whose agent was killed
 * is failed by pg-boss's monitor ("job heartbeat timeout") rather than left active.
 *
 * @module
 */
import type { PgBoss } from "pg-boss";
import { connectionOf } from "../store/mod.ts";
import { agentQueue } from "./names.ts";

/** A benchmark job as the queue carries it. */
export interface FleetJobData {
  /** The benchmark's arguments (what `deno task bench --` takes). */
  args: string[];
  /** When it was asked for (ISO time). */
  requestedAt: string;
}

/** A job as the dashboard shows it. */
export interface FleetJobInfo {
  id: string;
  state: "created" | "retry" | "active" | "completed" | "cancelled" | "failed";
  args: string[];
  createdOn: string;
  startedOn: string | null;
  completedOn: string | null;
  /** What the job ended with: the summary, or `{ message }` of its failure. */
  output: Record<string, unknown> | null;
}

/** Options of {@linkcode FleetQueue}. */
export interface FleetQueueOptions {
  /** Seconds without a job heartbeat before the job fails (pg-boss: ≥ 10). @default 30 */
  heartbeatSeconds?: number;
  /** Seconds between pg-boss's monitor passes (which fail jobs without heartbeat). @default 15 */
  monitorIntervalSeconds?: number;
  /** Seconds between an idle agent's looks at its queue. @default 2 */
  pollingIntervalSeconds?: number;
  /** Reports pg-boss's background errors (a lost connection it will retry). */
  onError?: (err: unknown) => void;
}

/** The longest a benchmark job may run (pg-boss's limit is 24 hours). */
const EXPIRE_SECONDS = 24 * 3600 - 60;

/** The queue, started on a database URL. */
export class FleetQueue {
  readonly #boss: PgBoss;
  readonly #options: FleetQueueOptions;

  private constructor(boss: PgBoss, options: FleetQueueOptions) {
    this.#boss = boss;
    this.#options = options;
  }

  /** Connects, and creates pg-boss's schema when the database has none. */
  static async start(url: string, options: FleetQueueOptions = {}): Promise<FleetQueue> {
    // pg-boss loads with a queue, not with every program that imports lib/fleet.
    const { PgBoss } = await import("pg-boss");
    const boss = new PgBoss({
      ...connectionOf(url),
      monitorIntervalSeconds: options.monitorIntervalSeconds ?? 15,
      superviseIntervalSeconds: options.monitorIntervalSeconds ?? 15,
      schedule: false,
      max: 4,
    });
    boss.on("error", (err: unknown) => options.onError?.(err));
    await boss.start();
    return new FleetQueue(boss, options);
  }

  /** Creates the queue of the agent `name` (idempotent). */
  async ensureQueue(name: string): Promise<void> {
    const queue = agentQueue(name);
    if (await this.#boss.getQueue(queue)) return;
    await this.#boss.createQueue(queue, {
      retryLimit: 0,
      expireInSeconds: EXPIRE_SECONDS,
      heartbeatSeconds: Math.max(10, this.#options.heartbeatSeconds ?? 30),
    }).catch(async (err) => {
      if (!(await this.#boss.getQueue(queue))) throw err; // else: created meanwhile
    });
  }

  /** Sends a benchmark to the agent `name`; returns the job's id. */
  async submit(name: string, args: string[]): Promise<string> {
    const data: FleetJobData = { args, requestedAt: new Date().toISOString() };
    const id = await this.#boss.send(agentQueue(name), data);
    if (!id) throw new Error(`The queue of agent '${name}' refused the job`);
    return id;
  }

  /**
   * Takes the agent's jobs one at a time: `handler` runs each (its result completes the job, a
   * throw fails it with the message); `signal` aborts when pg-boss finds the claim gone.
   */
  async work(
    name: string,
    handler: (id: string, data: FleetJobData, signal: AbortSignal) => Promise<object>,
  ): Promise<void> {
    await this.#boss.work<FleetJobData>(
      agentQueue(name),
      { batchSize: 1, pollingIntervalSeconds: this.#options.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        if (!job) return {};
        return await handler(job.id, job.data, job.signal);
      },
    );
  }

  /** The agent's jobs, newest first. */
  async jobs(name: string, limit = 20): Promise<FleetJobInfo[]> {
    const jobs = await this.#boss.findJobs<FleetJobData>(agentQueue(name));
    return jobs
      .map((j) => ({
        id: j.id,
        state: j.state,
        args: j.data?.args ?? [],
        createdOn: j.createdOn.toISOString(),
        startedOn: j.startedOn?.toISOString() ?? null,
        completedOn: j.completedOn?.toISOString() ?? null,
        output: (j.output ?? null) as Record<string, unknown> | null,
      }))
      .sort((a, b) => b.createdOn.localeCompare(a.createdOn))
      .slice(0, limit);
  }

  /** Stops taking jobs and closes the connections (waiting for a job under way). */
  async stop(options: { graceful?: boolean } = {}): Promise<void> {
    await this.#boss.stop({ graceful: options.graceful ?? true, timeout: 30_000 });
  }
}
