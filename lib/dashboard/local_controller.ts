/**
 * The benchmark controller wired to this machine: arguments resolved as `cli.ts` resolves them,
 * the model server reached through `connect`, this machine's profiler and machine capture. The
 * dashboard (app/web_app.ts) and a fleet agent (lib/fleet/agent_main.ts) both run their jobs
 * through one of these; tests replace any part.
 *
 * @module
 */
import { resolveInvocation } from "../cli/mod.ts";
import {
  connect,
  defaultProfiler,
  lmsFor,
  type Profiler,
  type ResolvedRun,
  type ServerFacts,
} from "../bench/mod.ts";
import type { Config, EnvReader } from "../config/mod.ts";
import { type Backend, createBackend } from "../modelserver/mod.ts";
import type { MachineRecord, ResultsStore } from "../store/mod.ts";
import { BenchmarkController } from "./controller.ts";

/** What a local controller needs; the optional parts default to this machine's. */
export interface LocalControllerOptions {
  store: ResultsStore;
  /** Read for the run's configuration, as the command line reads it. */
  env: EnvReader;
  /** Arguments put before every job's own. */
  baseArgs?: string[];
  /** Where the model server's notes go (a loaded model, a fallback). */
  say(line: string): void;
  /** Captures the machine a job runs on. */
  machine(server: ServerFacts): Promise<MachineRecord>;
  /** Connects to the model server. @default connect() with LM Studio's SDK when configured */
  connect?: (config: Config) => Promise<Backend>;
  /** The profiler of `--enable-profiling`. @default this machine's (defaultProfiler) */
  profiler?: (inv: ResolvedRun) => Profiler | null;
}

/** A benchmark controller that runs its jobs on this machine. */
export function localController(options: LocalControllerOptions): BenchmarkController {
  return new BenchmarkController({
    store: options.store,
    baseArgs: options.baseArgs ?? [],
    resolve: (argv) => resolveInvocation(argv, { env: options.env }),
    profiler: options.profiler ?? defaultProfiler,
    machine: options.machine,
    connect: options.connect ??
      ((config) =>
        connect(config, { createBackend, lms: lmsFor(config), note: (m) => options.say(m) })),
  });
}
