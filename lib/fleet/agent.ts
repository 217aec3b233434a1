/**
 * A fleet agent: it registers under its name in the shared database, sends a heartbeat, and
 * takes the benchmark jobs addressed to it one at a time, running each on this machine with its
 * {@linkcode AgentRunner} and sending every event of the job to the dashboards. It opens no
 * listening port: it needs only the database's credentials.
 *
 * @module
 */
import { messageOf } from "../error.ts";
import { ProgressPublisher } from "./progress.ts";
import type { FleetQueue } from "./queue.ts";
import { FleetRegistry, type SqlClient } from "./registry.ts";

/** One event of a job (the dashboard's event shapes: status, progress, runs, results…). */
export type AgentEvent = { type: string } & Record<string, unknown>;

/** Runs a benchmark on this machine. */
export interface AgentRunner {
  /**
   * Runs the benchmark `args`; `emit` gets each event; resolves with its summary (an outcome of
   * `failed` rejects instead, with the reason); `signal` aborts it (the job's claim is gone).
   */
  run(args: string[], emit: (event: AgentEvent) => void, signal: AbortSignal): Promise<object>;
}

/** Options of {@linkcode FleetAgent.start}. */
export interface FleetAgentOptions {
  name: string;
  /** The machine's identity, shown by the dashboard's fleet view. */
  machine: Record<string, unknown>;
  /**
   * The owner token of the results its jobs write (the store's): a dashboard that sees the agent
   * killed marks what it left running as interrupted.
   */
  owner?: string;
  runner: AgentRunner;
  /** The database (a `pg` Pool) for the register and the progress notifications. */
  sql: SqlClient;
  queue: FleetQueue;
  /** Milliseconds between heartbeats. @default 5000 */
  heartbeatMs?: number;
  /** Seconds a heartbeat keeps the agent live in the register. @default 30 */
  liveSeconds?: number;
  /** One line per thing worth saying (started, job taken, job done). */
  say?: (line: string) => void;
}

/** A running agent. */
export class FleetAgent {
  readonly #options: FleetAgentOptions;
  readonly #registry: FleetRegistry;
  readonly instance = crypto.randomUUID();
  #timer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;

  private constructor(options: FleetAgentOptions) {
    this.#options = options;
    this.#registry = new FleetRegistry(options.sql, { liveSeconds: options.liveSeconds });
  }

  /** Registers, starts the heartbeat and takes jobs. */
  static async start(options: FleetAgentOptions): Promise<FleetAgent> {
    const agent = new FleetAgent(options);
    await agent.#registry.ensureSchema();
    await agent.#registry.register(
      options.name,
      agent.instance,
      options.machine,
      options.owner ?? null,
    );
    await options.queue.ensureQueue(options.name);
    agent.#timer = setInterval(() => void agent.#beat(), options.heartbeatMs ?? 5000);
    await options.queue.work(options.name, (id, data, signal) => agent.#job(id, data.args, signal));
    agent.#say(`agent ${options.name}: waiting for benchmark jobs`);
    return agent;
  }

  /** Stops taking jobs (a job under way ends first), and leaves the register as stopped. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#options.queue.stop({ graceful: true });
    await this.#registry.stopped(this.#options.name, this.instance).catch(() => {});
  }

  async #beat(): Promise<void> {
    try {
      if (!await this.#registry.heartbeat(this.#options.name, this.instance)) {
        this.#say(`agent ${this.#options.name}: another agent took this name; stopping`);
        await this.stop();
      }
    } catch (err) {
      this.#say(`agent ${this.#options.name}: heartbeat failed (${messageOf(err)}); retrying`);
    }
  }

  async #job(id: string, args: string[], signal: AbortSignal): Promise<object> {
    const { name, runner, sql } = this.#options;
    this.#say(`agent ${name}: job ${id} started: ${args.join(" ")}`);
    await this.#registry.setJob(name, this.instance, { id, args });
    const publisher = new ProgressPublisher(sql);
    const send = (event: AgentEvent) => publisher.publish({ agent: name, job: id, event });
    const emit = (event: AgentEvent) => {
      send(event);
      if (event.type === "status") {
        void this.#registry.setStatus(name, this.instance, event).catch(() => {});
      }
    };
    send({ type: "job", state: "active", args });
    try {
      const summary = await runner.run(args, emit, signal);
      send({ type: "job", state: "completed", summary });
      this.#say(`agent ${name}: job ${id} done`);
      return summary;
    } catch (err) {
      const message = messageOf(err);
      send({ type: "job", state: "failed", error: message });
      this.#say(`agent ${name}: job ${id} failed: ${message}`);
      throw err;
    } finally {
      await publisher.flushed();
      await this.#registry.setJob(name, this.instance, null).catch(() => {});
    }
  }

  #say(line: string): void {
    this.#options.say?.(line);
  }
}
