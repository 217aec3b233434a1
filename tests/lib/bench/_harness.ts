/**
 * Harness of the engine tests: a benchmark through `runJob` against the LM Studio double with an
 * in-memory store, collecting the events.
 *
 * @module
 */
import type { BenchEvent } from "../../../lib/bench/events.ts";
import { JobController } from "../../../lib/bench/job_control.ts";
import { type JobSummary, runJob } from "../../../lib/bench/job.ts";
import type { Profiler } from "../../../lib/bench/profiler_types.ts";
import { flagsToRunOptions } from "../../../lib/cli/options.ts";
import { type RunOptions } from "../../../lib/bench/options.ts";
import { builtInDefaults, type Config } from "../../../lib/config/mod.ts";
import type { Backend, BackendKind } from "../../../lib/modelserver/backend.ts";
import { createBackend } from "../../../lib/modelserver/factory.ts";
import type { LmsCli } from "../../../lib/modelserver/lms_cli.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";
import {
  type RunningLmStudioDouble,
  startLmStudioDouble,
  type StartLmStudioDoubleOptions,
} from "../../doubles/lmstudio_server.ts";

/** A configuration for tests: 2 runs of at most 16 tokens on the double's port. */
export function testConfig(port: number, overrides: Partial<Config> = {}): Config {
  const c = builtInDefaults();
  c.num_runs = 2;
  c.inference.max_tokens = 16;
  c.modelserver.host = "127.0.0.1";
  c.modelserver.ports = [port];
  return { ...c, ...overrides };
}

/** Run options (defaults of the command line, one stream unless told). */
export function testOptions(
  overrides: Partial<Omit<RunOptions, "filters">> & { filters?: Partial<RunOptions["filters"]> } =
    {},
): RunOptions {
  const base = flagsToRunOptions({});
  return {
    ...base,
    n_parallel: 1,
    ...overrides,
    filters: { ...base.filters, ...overrides.filters },
  };
}

/** What a benchmark against the double needs and gives. */
export interface Bench {
  double: RunningLmStudioDouble;
  store: ResultsStore;
  backend(kind: BackendKind): Backend;
  /** Runs a job; returns the summary and the events. */
  run(
    kind: BackendKind,
    options?: RunOptions,
    extra?: {
      config?: Config;
      control?: JobController;
      profiler?: Profiler | null;
      lms?: LmsCli | null;
      onEvent?: (e: BenchEvent, control: JobController) => void;
    },
  ): Promise<{ summary: JobSummary; events: BenchEvent[] }>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts the double and an in-memory store; dispose with `await using`. */
export async function bench(options: StartLmStudioDoubleOptions = {}): Promise<Bench> {
  const double = await startLmStudioDouble({ port: 0, ...options });
  const store = ResultsStore.open(":memory:");
  const backends: Backend[] = [];
  const backend = (kind: BackendKind) => {
    const b = createBackend({ backend: kind, host: "127.0.0.1", port: double.port });
    backends.push(b);
    return b;
  };
  return {
    double,
    store,
    backend,
    async run(kind, options = testOptions(), extra = {}) {
      const events: BenchEvent[] = [];
      const control = extra.control ?? new JobController();
      const summary = await runJob(extra.config ?? testConfig(double.port), options, {
        backend: backend(kind),
        store,
        control,
        profiler: extra.profiler ?? null,
        lms: extra.lms ?? null,
        emit: (e) => {
          events.push(e);
          extra.onEvent?.(e, control);
        },
      });
      return { summary, events };
    },
    async [Symbol.asyncDispose]() {
      for (const b of backends) await b.close();
      store.close();
      await double.close();
    },
  };
}

/** The chat requests the double saw (REST `/api/v1/chat`). */
export function chatBodies(double: RunningLmStudioDouble): Record<string, unknown>[] {
  return double.state.requests.filter((r) => r.path === "/api/v1/chat").map((r) =>
    r.body as Record<string, unknown>
  );
}

/** The REST calls as `load:<model>`, `chat:<model>`, `unload:<id>` in order. */
export function restSequence(double: RunningLmStudioDouble): string[] {
  return double.state.requests.flatMap((r) => {
    const b = r.body as Record<string, unknown>;
    if (r.path === "/api/v1/models/load") return [`load:${b.model}`];
    if (r.path === "/api/v1/chat") return [`chat:${b.model}`];
    if (r.path === "/api/v1/models/unload") return [`unload:${b.instance_id}`];
    return [];
  });
}

/** Events of one type. */
export function ofType<T extends BenchEvent["type"]>(
  events: BenchEvent[],
  type: T,
): Extract<BenchEvent, { type: T }>[] {
  return events.filter((e): e is Extract<BenchEvent, { type: T }> => e.type === type);
}
