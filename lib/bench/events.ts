/**
 * Structured progress events of a benchmark job. The command line renders them as progress bars
 * or lines; the dashboard streams the same events to the browser as server-sent events.
 *
 * @module
 */

/** A hardware sample (profiling). Fields are null when the source is absent (no GPU here). */
export interface HardwareSample {
  time: number;
  temp_c: number | null;
  power_w: number | null;
  gpu_vram_gb: number | null;
  gtt_gb: number | null;
  cpu_percent: number | null;
  ram_gb: number | null;
}

/** Figures of one finished measured run. */
export interface RunFigures {
  tokens_per_sec: number | null;
  ttft_ms: number | null;
  tokens_out: number | null;
  total_ms: number;
}

/** Summary of a finished model. */
export interface ModelFigures {
  tokens_per_sec_mean: number | null;
  ttft_ms_mean: number | null;
  runs_ok: number;
  runs_failed: number;
  /** Runs left out of the statistics (a reload during them). */
  runs_excluded?: number;
  /**
   * Identities the model's runs were stored as (a grid's cells): above 1 the means above mix
   * them and are null; each is in the tables.
   */
  identities?: number;
}

/** Every event a job emits. */
export type BenchEvent =
  | {
    type: "job_start";
    backend: string;
    server: string;
    models: string[];
    /** Measured runs per model (every workload cell's). */
    runs: number;
    skipped: string[];
    /** Parallel rounds per model after the runs (0: none). */
    parallel_rounds?: number;
    /** Load-curve levels per model after them (0: none). */
    load_levels?: number;
    /** Whether hardware samples come (`--enable-profiling`). */
    profiling?: boolean;
  }
  | {
    type: "model_skip";
    key: string;
    reason: string;
    /** The filter's field is unknown for this model (said in the normal output). */
    unknown?: boolean;
  }
  | { type: "model_start"; key: string; index: number; total: number }
  | { type: "model_loaded"; key: string; load_time_ms: number | null }
  | { type: "warmup_done"; key: string; ms: number }
  | {
    type: "run_start";
    key: string;
    run: number;
    runs: number;
    parallel: number;
    /** The grid cell of a controlled workload (`pp128 tg32`). */
    cell?: string;
  }
  | { type: "tokens"; key: string; run: number; text: string }
  | {
    type: "run_end";
    key: string;
    run: number;
    runs: number;
    ok: boolean;
    error: string | null;
    retried: boolean;
    figures: RunFigures | null;
    /** Why the run is left out of the statistics (the model was loaded during it). */
    excluded?: string;
  }
  | {
    type: "model_end";
    key: string;
    status: "ok" | "partial" | "failed" | "stopped";
    error: string | null;
    figures: ModelFigures | null;
  }
  | {
    /** A parallel round ended: `parallel` requests at once. */
    type: "round_end";
    key: string;
    round: number;
    rounds: number;
    parallel: number;
    ok: number;
    failed: number;
    /** Output tokens of the round over its wall time. */
    tokens_per_sec: number | null;
    wall_ms: number;
  }
  | {
    type: "load_level";
    key: string;
    mode: "concurrency" | "rate";
    level: number;
    /** Null at the start of the level; the level's figures at its end. */
    figures: {
      requests: number;
      ok: number;
      output_tokens_per_sec: number | null;
      requests_per_sec: number | null;
      goodput_rps: number | null;
      latency_ms_p99: number | null;
    } | null;
  }
  | { type: "hardware"; sample: HardwareSample }
  | { type: "log"; level: "debug" | "info" | "warn" | "error"; message: string }
  | {
    type: "job_end";
    outcome: "completed" | "failed" | "stopped";
    /** Variants measured (partial ones included). */
    tested: number;
    /** Of them, those some of whose runs failed. */
    partial?: number;
    failed: number;
    skipped: number;
    error: string | null;
  };

/** A consumer of events. */
export type EventSink = (event: BenchEvent) => void;
