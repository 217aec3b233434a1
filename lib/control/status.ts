/**
 * The status snapshot of the dashboard's benchmark (`GET /api/status`) and how job events move
 * its progress. Status is exactly `idle`, `running` or `paused`; the last run's outcome is a
 * separate field.
 *
 * @module
 */
import type { BenchEvent } from "../bench/events.ts";

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
  /** `connecting`, `loading`, `warmup`, `measuring`, `done`. */
  phase: string;
  tested: number;
  failed: number;
  skipped: number;
  /** 0..100. */
  percent: number;
}

/** How the last job ended. */
export interface Outcome {
  outcome: "completed" | "failed" | "stopped";
  tested: number;
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
    phase: "connecting",
    tested: 0,
    failed: 0,
    skipped: 0,
    percent: 0,
  };
}

function percentOf(p: Progress): number {
  if (p.model_total === 0) return p.phase === "done" ? 100 : 0;
  const within = p.runs > 0 ? p.run / p.runs : 0;
  const done = Math.max(0, p.model_index - 1) + (p.phase === "done" ? 1 : within);
  return Math.min(100, Math.round((done / p.model_total) * 1000) / 10);
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
      p.skipped = e.skipped.length;
      p.phase = e.models.length === 0 ? "done" : "loading";
      break;
    case "model_start":
      p.model_index = e.index;
      p.model_total = e.total;
      p.run = 0;
      p.phase = "loading";
      state.model = e.key;
      break;
    case "model_loaded":
      p.phase = "warmup";
      break;
    case "warmup_done":
      p.phase = "measuring";
      break;
    case "run_end":
      p.run = e.run;
      p.runs = e.runs;
      p.phase = "measuring";
      break;
    case "model_end":
      if (e.status === "ok") p.tested++;
      else if (e.status === "failed") p.failed++;
      p.run = p.runs;
      break;
    case "job_end":
      p.phase = "done";
      state.model = null;
      break;
    default:
      return false;
  }
  p.percent = percentOf(p);
  return true;
}
