/**
 * What one model's benchmark needs from its job, how it can end, and the load options of a
 * configuration.
 *
 * @module
 */
import type { Config } from "../config/mod.ts";
import type { Backend, LoadOptions } from "../modelserver/mod.ts";
import type { MachineRecord, ResultsStore, Row } from "../store/mod.ts";
import type { JobControl } from "./job_control.ts";
import type { EventSink } from "./events.ts";
import type { Dataset } from "./dataset.ts";
import type { RunOptions } from "./options.ts";
import type { Profiler } from "./profiler_types.ts";
import type { SensorState } from "./honesty.ts";

/** What the sequence needs from the job. */
export interface ModelRunContext {
  backend: Backend;
  store: ResultsStore;
  emit: EventSink;
  control: JobControl;
  profiler: Profiler | null;
  nonce: () => string;
  config: Config;
  options: RunOptions;
  paramsHash: string;
  params: Record<string, unknown>;
  /** Extra columns stored with the result (versions, system information). */
  resultMeta: Row;
  /** The machine the result runs on (null: unknown). */
  machine?: MachineRecord | null;
  /** Whether `--max-temp` / `--max-power` can act (profiling on and a sensor present). */
  sensors?: SensorState;
  /** The server is llama.cpp's (it applies every sampling value of a request). */
  llamacpp?: boolean;
  /** Told the id of the result this model's benchmark writes, once it exists. */
  onResult?: (id: number) => void;
  /** The `--dataset` of the job, read and sampled once. */
  dataset?: Dataset | null;
}

/**
 * How a model's benchmark ended: `partial` when it has figures but some of its runs failed (shown
 * and reported as such, never a cache hit).
 */
export type ModelStatus = "ok" | "partial" | "failed" | "stopped";

/** The load options of a configuration. */
export function loadOptionsOf(config: Config, options: RunOptions, parallel: boolean): LoadOptions {
  return {
    context_length: config.context_length,
    ...config.load,
    ...(parallel
      ? { n_parallel: options.n_parallel, unified_kv_cache: options.unified_kv_cache }
      : {}),
  };
}
