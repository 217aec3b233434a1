/**
 * The dashboard's benchmark service: one job at a time, run in this process. It resolves the
 * arguments with the command line's own resolver, connects to the model server, runs the job
 * with a {@linkcode JobController} (cooperative pause, stop aborts the in-flight request),
 * keeps a status snapshot and fans every event out to server-sent-event subscribers.
 *
 * @module
 */
import {
  type BenchEvent,
  JobController,
  type JobDeps,
  type JobSummary,
  type Profiler,
  runJob,
  type ServerFacts,
} from "../bench/mod.ts";
import type { Invocation } from "../cli/mod.ts";
import type { Config } from "../config/mod.ts";
import { AppError, badRequest, ConflictError, messageOf } from "../error.ts";
import type { Backend } from "../modelserver/mod.ts";
import type { MachineRecord, ResultsStore } from "../store/mod.ts";
import { VERSION } from "../version.ts";
import { EventHub, type Numbered } from "./events.ts";
import {
  applyEvent,
  type BenchStatus,
  emptyProgress,
  etaSeconds,
  type Outcome,
  type Progress,
  type StatusSnapshot,
} from "./status.ts";

/** Every event the dashboard streams: the job's events plus status snapshots. */
export type ControlEvent = BenchEvent | ({ type: "status" } & StatusSnapshot);

type RunInvocation = Extract<Invocation, { kind: "run" }>;

/** What the controller needs (injected so tests can point it at a double). */
export interface ControllerDeps {
  /** Resolves an argument vector (the command line's `resolveInvocation`). */
  resolve(argv: string[]): Promise<Invocation>;
  /** Connects to the model server of a configuration. */
  connect(config: Config): Promise<Backend>;
  /** Where results go (shared with the data API). */
  store: ResultsStore;
  /** Arguments put before every start body's (e.g. `--backend rest --base-url URL`). */
  baseArgs?: string[];
  /** The job runner. @default runJob */
  runJob?: (config: Config, options: RunInvocation["options"], deps: JobDeps) => Promise<
    JobSummary
  >;
  /**
   * Captures the machine a job runs on (lib/bench/machine.ts), named by its results.
   * @default none: an unknown machine
   */
  machine?: (server: ServerFacts) => Promise<MachineRecord>;
  /** Creates the profiler for `--enable-profiling`. @default none */
  profiler?: (inv: RunInvocation) => Profiler | null;
  /** Clock. @default () => new Date() */
  now?: () => Date;
  /** Events kept for replay. @default 1000 */
  backlog?: number;
  /** Longest wait of `stop()` for the job to end. @default 30_000 */
  stopTimeoutMs?: number;
}

/** The benchmark controller behind the control API. */
export class BenchmarkController {
  readonly events: EventHub<ControlEvent>;
  #deps: ControllerDeps;
  #status: BenchStatus = "idle";
  #state: { progress: Progress; model: string | null } = {
    progress: emptyProgress(),
    model: null,
  };
  #startedAt: string | null = null;
  #args: string[] | null = null;
  #outcome: Outcome | null = null;
  #control: JobController | null = null;
  #done: Promise<void> | null = null;

  constructor(deps: ControllerDeps) {
    this.#deps = deps;
    this.events = new EventHub({ backlog: deps.backlog ?? 1000 });
  }

  #now(): string {
    return (this.#deps.now?.() ?? new Date()).toISOString();
  }

  /**
   * The configuration and options a run started with no arguments would have: the built-in,
   * project and user defaults and the web app's own benchmark arguments (the form's defaults).
   */
  async defaults(): Promise<{ config: Config; options: RunInvocation["options"] }> {
    const inv = await this.#deps.resolve([...(this.#deps.baseArgs ?? [])]);
    if (inv.kind !== "run") throw badRequest("Cannot read the defaults: '--help' was given");
    return { config: inv.config, options: inv.options };
  }

  /** The current snapshot. */
  status(): StatusSnapshot {
    const started = this.#startedAt === null ? null : Date.parse(this.#startedAt);
    const now = (this.#deps.now?.() ?? new Date()).getTime();
    const progress = { ...this.#state.progress };
    progress.eta_s = started === null || this.#status !== "running"
      ? null
      : etaSeconds(progress, now - started);
    return {
      status: this.#status,
      running: this.#status !== "idle",
      model: this.#state.model,
      progress,
      started_at: this.#startedAt,
      args: this.#args,
      outcome: this.#outcome,
    };
  }

  #publishStatus(): Numbered<ControlEvent> {
    return this.events.publish({ type: "status", ...this.status() });
  }

  #conflict(action: string, why: string): AppError {
    return new ConflictError(`Cannot ${action}: ${why}`, { code: "invalid_transition" });
  }

  /**
   * Starts a benchmark with these arguments (after the base arguments). Resolves once the model
   * server answered and the job runs.
   *
   * @throws {ConflictError} when a benchmark is running or paused; {UsageError} for bad arguments; {UnreachableError}
   * when the model server does not answer.
   */
  async start(args: string[]): Promise<StatusSnapshot> {
    if (this.#status !== "idle") {
      throw this.#conflict("start", `a benchmark is already ${this.#status}`);
    }
    const control = new JobController();
    this.#control = control;
    this.#status = "running";
    this.#state = { progress: emptyProgress(), model: null };
    this.#startedAt = this.#now();
    this.#args = args;
    this.events.clearBacklog();
    let backend: Backend;
    let inv: RunInvocation;
    try {
      const resolved = await this.#deps.resolve([...(this.#deps.baseArgs ?? []), ...args]);
      if (resolved.kind !== "run") throw badRequest("Cannot start: '--help' is not a benchmark");
      if (resolved.options.action !== "benchmark") {
        throw badRequest(`Cannot start: '${resolved.options.action}' is not a benchmark`);
      }
      inv = resolved;
    } catch (err) {
      this.#reset();
      throw err;
    }
    // The previous run's outcome (its error) is not this run's: /api/status says none until the
    // new run ends.
    this.#outcome = null;
    this.#publishStatus();
    try {
      backend = await this.#deps.connect(inv.config);
    } catch (err) {
      this.#failedStart(err);
      throw err;
    }
    this.#done = this.#run(inv, backend, control);
    return this.status();
  }

  /**
   * Ends a start that failed after "running" was sent (the model server did not answer): the
   * error as an error event, the outcome, and a closing `idle` status, so every page, the tray
   * and a client replaying the backlog agree with `/api/status`.
   */
  #failedStart(err: unknown): void {
    const error = messageOf(err);
    this.#reset();
    this.#outcome = {
      outcome: "failed",
      tested: 0,
      failed: 0,
      skipped: 0,
      error,
      finished_at: this.#now(),
    };
    this.events.publish({
      type: "log",
      level: "error",
      message: `Benchmark not started: ${error}`,
    });
    this.#publishStatus();
  }

  #reset(): void {
    this.#status = "idle";
    this.#control = null;
    this.#startedAt = null;
    this.#args = null;
    this.#state = { progress: emptyProgress(), model: null };
  }

  /** The machine of a job; when it cannot be captured, said in the log and left unknown. */
  async #machine(server: ServerFacts): Promise<MachineRecord | null> {
    try {
      return (await this.#deps.machine?.(server)) ?? null;
    } catch (err) {
      this.events.publish({
        type: "log",
        level: "warn",
        message: `The machine could not be recorded (${messageOf(err)}): its results name none`,
      });
      return null;
    }
  }

  async #run(inv: RunInvocation, backend: Backend, control: JobController): Promise<void> {
    const run = this.#deps.runJob ?? runJob;
    let summary: Pick<JobSummary, "outcome" | "tested" | "failed" | "skipped" | "error"> & {
      partial?: string[];
    };
    try {
      const serverVersion = await backend.version().catch(() => null);
      const machine = await this.#machine({ describe: backend.describe(), version: serverVersion });
      summary = await run(inv.config, inv.options, {
        machine,
        backend,
        store: this.#deps.store,
        control,
        profiler: inv.options.enable_profiling ? this.#deps.profiler?.(inv) ?? null : null,
        emit: (e) => {
          const changed = applyEvent(this.#state, e);
          this.events.publish(e);
          if (changed) this.#publishStatus();
        },
        resultMeta: { app_version: VERSION, server_version: serverVersion },
      });
    } catch (err) {
      const error = messageOf(err);
      summary = { outcome: "failed", tested: [], failed: [], skipped: [], error };
      this.events.publish({ type: "log", level: "error", message: `Benchmark failed: ${error}` });
    } finally {
      await backend.close().catch(() => {});
    }
    this.#outcome = {
      outcome: summary.outcome,
      tested: summary.tested.length,
      partial: summary.partial?.length ?? 0,
      failed: summary.failed.length,
      skipped: summary.skipped.length,
      error: summary.error,
      finished_at: this.#now(),
    };
    this.#status = "idle";
    this.#control = null;
    this.#state.model = null;
    this.#publishStatus();
  }

  /** Pauses after the in-flight request. @throws {ConflictError} unless running. */
  pause(): StatusSnapshot {
    if (this.#status !== "running") {
      throw this.#conflict("pause", `the benchmark is ${this.#status}`);
    }
    this.#control!.pause();
    this.#status = "paused";
    this.#publishStatus();
    return this.status();
  }

  /** Resumes a paused benchmark. @throws {ConflictError} unless paused. */
  resume(): StatusSnapshot {
    if (this.#status !== "paused") {
      throw this.#conflict("resume", `the benchmark is ${this.#status}`);
    }
    this.#control!.resume();
    this.#status = "running";
    this.#publishStatus();
    return this.status();
  }

  /**
   * Stops: aborts the in-flight request, unloads the model and waits (bounded) until the job
   * ended. @throws {ConflictError} when idle.
   */
  async stop(): Promise<StatusSnapshot> {
    if (this.#status === "idle") throw this.#conflict("stop", "no benchmark is running");
    this.#control?.stop();
    await this.settled(this.#deps.stopTimeoutMs ?? 30_000);
    return this.status();
  }

  /** Waits until no job runs (or the timeout passes). */
  async settled(timeoutMs = 30_000): Promise<void> {
    if (!this.#done) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#done,
      new Promise<void>((resolve) => timer = setTimeout(resolve, timeoutMs)),
    ]);
    clearTimeout(timer);
  }

  /** Stops a running benchmark, if any (shutdown). */
  async shutdown(): Promise<void> {
    if (this.#status !== "idle") await this.stop();
    else await this.settled();
  }
}
