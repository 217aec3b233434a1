/**
 * The status snapshot of the dashboard's benchmark (`GET /api/status`) and how job events move
 * its progress. Status is exactly `idle`, `running` or `paused`; the last run's outcome is a
 * separate field.
 *
 * @module
 */
import type { BenchEvent } from "../bench/mod.ts";

/** The benchmark's status. */
export type BenchStatus = "idle" | "running" | "paused";

/** How far the current job is. */
export interface Progress {
  /** 1-based index of the current model (0 before the first). */
  model_index: number;
  model_total: number;
  /** Current measured run of the current model (0 during load and warmup). */
  run: number;
  runs: number;
  /** Parallel rounds per model (0: none) and the current one. */
  round: number;
  rounds: number;
  /** Load-curve levels per model (0: none) and the current one. */
  level: number;
  levels: number;
  /** `connecting`, `loading`, `warmup`, `measuring`, `parallel`, `load`, `unloading`, `done`. */
  phase: string;
  /** The phase in words (`run 2/3`, `parallel round 1/3 (4 at once)`, `load: concurrency 8`). */
  detail: string;
  tested: number;
  failed: number;
  skipped: number;
  /** 0..100: the steps done (each model: load, warmup, runs, rounds, levels) of all. */
  percent: number;
  /** Seconds left at the pace so far (null until a step is done, and when done). */
  eta_s: number | null;
}

/** How the last job ended. */
export interface Outcome {
  outcome: "completed" | "failed" | "stopped";
  tested: number;
  /** Of the tested, those some of whose runs failed. */
  partial?: number;
  failed: number;
  skipped: number;
  error: string | null;
  finished_at: string;
}

/** `GET /api/status`. */
export interface StatusSnapshot {
  status: BenchStatus;
  /** `status !== "idle"` (for clients of the reference API). */
  running: boolean;
  /** Key of the model being measured. */
  model: string | null;
  progress: Progress;
  started_at: string | null;
  /** The arguments of the current job. */
  args: string[] | null;
  outcome: Outcome | null;
}

/** A progress before any job. */
export function emptyProgress(): Progress {
  return {
    model_index: 0,
    model_total: 0,
    run: 0,
    runs: 0,
    round: 0,
    rounds: 0,
    level: 0,
    levels: 0,
    phase: "connecting",
    detail: "connecting to the model server",
    tested: 0,
    failed: 0,
    skipped: 0,
    percent: 0,
    eta_s: null,
  };
}

/** Steps of one model: load, warmup, its runs, its parallel rounds, its load levels. */
function stepsPerModel(p: Progress): number {
  return 2 + p.runs + p.rounds + p.levels;
}

/** Steps of the current model already done. */
function stepsDone(p: Progress): number {
  switch (p.phase) {
    case "loading":
      return 0;
    case "warmup":
      return 1;
    case "measuring":
      return 2 + p.run;
    case "parallel":
      return 2 + p.runs + p.round;
    case "load":
      return 2 + p.runs + p.rounds + p.level;
    case "unloading":
      return stepsPerModel(p);
    default:
      return 0;
  }
}

function percentOf(p: Progress): number {
  if (p.phase === "done") return 100;
  if (p.model_total === 0) return 0;
  const per = stepsPerModel(p);
  const done = Math.max(0, p.model_index - 1) * per + Math.min(per, stepsDone(p));
  return Math.min(100, Math.round((done / (p.model_total * per)) * 1000) / 10);
}

/**
 * Seconds left at the pace so far: `elapsed × (100 − percent) / percent`; null before the
 * first step is done and once the job is done.
 */
export function etaSeconds(p: Progress, elapsedMs: number): number | null {
  if (p.phase === "done" || p.percent <= 0 || elapsedMs <= 0) return null;
  return Math.round((elapsedMs / 1000) * (100 - p.percent) / p.percent);
}

/**
 * Applies a job event to the progress and the current model; returns whether it changed
 * (so a status event is worth sending).
 */
export function applyEvent(
  state: { progress: Progress; model: string | null },
  e: BenchEvent,
): boolean {
  const p = state.progress;
  switch (e.type) {
    case "job_start":
      p.model_total = e.models.length;
      p.runs = e.runs;
      p.rounds = e.parallel_rounds ?? 0;
      p.levels = e.load_levels ?? 0;
      p.skipped = e.skipped.length;
      p.phase = e.models.length === 0 ? "done" : "loading";
      p.detail = e.models.length === 0 ? "nothing to measure" : "loading the first model";
      break;
    case "model_start":
      p.model_index = e.index;
      p.model_total = e.total;
      p.run = 0;
      p.round = 0;
      p.level = 0;
      p.phase = "loading";
      p.detail = `loading model ${e.index}/${e.total}`;
      state.model = e.key;
      break;
    case "model_loaded":
      p.phase = "warmup";
      p.detail = "warmup run";
      break;
    case "warmup_done":
      p.phase = "measuring";
      p.detail = `run 1/${p.runs}`;
      break;
    case "run_start":
      if (e.parallel > 1 && p.rounds > 0 && p.run >= p.runs) {
        p.phase = "parallel";
        p.detail = `parallel round ${e.run}/${p.rounds} (${e.parallel} at once)`;
      } else {
        p.detail = `run ${e.run}/${e.runs}${e.cell ? ` (${e.cell})` : ""}`;
      }
      break;
    case "run_end":
      p.run = e.run;
      p.runs = e.runs;
      p.phase = "measuring";
      break;
    case "round_end":
      p.round = e.round;
      p.phase = "parallel";
      break;
    case "load_level":
      if (e.figures === null) {
        p.phase = "load";
        p.detail = `load curve: ${
          e.mode === "concurrency" ? `${e.level} at once` : `${e.level} requests/s`
        } (level ${p.level + 1}/${p.levels})`;
      } else p.level++;
      break;
    case "model_end":
      if (e.status === "ok" || e.status === "partial") p.tested++;
      else if (e.status === "failed") p.failed++;
      // A model stopped mid-way keeps how far it got: the bar does not jump to its end.
      if (e.status === "stopped") {
        p.detail = "stopped: unloading";
        return true;
      }
      p.run = p.runs;
      p.round = p.rounds;
      p.level = p.levels;
      p.phase = "unloading";
      p.detail = "unloading";
      break;
    case "job_end":
      p.phase = "done";
      p.detail = e.outcome;
      state.model = null;
      // A stopped or failed job keeps how far it got; a completed one ends at 100%.
      if (e.outcome !== "completed" && p.model_total > 0) return true;
      break;
    default:
      return false;
  }
  p.percent = percentOf(p);
  return true;
}
