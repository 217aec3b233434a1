/**
 * The live view's state, folded from dashboard events (browser-safe, pure). A status carrying a
 * new `started_at` (another run) starts from a clean state, so a run never shows the last one's
 * output; every phase (load, warmup, runs, parallel rounds, load-curve levels) writes its line.
 *
 * @module
 */
import { fixed } from "../lib/shared/format.ts";
import type { LiveEvent } from "./bench_events.ts";

/** How the last run ended (the status's `outcome`). */
export interface LiveOutcome {
  outcome: string;
  error: string | null;
  tested: number;
  partial?: number;
  failed: number;
  skipped: number;
}

/** One point of the speed chart: a measured run or a parallel round. */
export interface SpeedPoint {
  /** The variant measured (`publisher/model@quant`). */
  key: string;
  /** Which run or round of it: `run 2`, `×4 round 1`. */
  label: string;
  /** tokens/s of one run, or of the round's requests together. */
  speed: number | null;
  kind: "run" | "round";
}

/** What the live view shows. */
export interface LiveState {
  status: string;
  /** When the followed run started (a new value means a new run). */
  startedAt: string | null;
  model: string | null;
  percent: number;
  phase: string;
  /** The phase in words, from the server. */
  detail: string;
  /** Seconds left as of `etaAt` (a client clock time in ms), or null. */
  etaS: number | null;
  etaAt: number;
  outcome: LiveOutcome | null;
  /** Output text, capped at {@linkcode MAX_OUTPUT} characters. */
  output: string;
  /** Error lines of this run (a start that failed, a failed model...). */
  errors: string[];
  /** tokens/s per finished run and parallel round. */
  runs: SpeedPoint[];
  /** Whether hardware samples come (null: no run seen yet). */
  profiling: boolean | null;
  /** Hardware samples (last 120). */
  hardware: { t: string; temp: number | null; cpu: number | null; ram: number | null }[];
}

/** Longest output kept. */
export const MAX_OUTPUT = 20_000;

/** The state before the first event. */
export function initialLive(status: string): LiveState {
  return {
    status,
    startedAt: null,
    model: null,
    percent: 0,
    phase: "",
    detail: "",
    etaS: null,
    etaAt: 0,
    outcome: null,
    output: "",
    errors: [],
    runs: [],
    profiling: null,
    hardware: [],
  };
}

const clip = (s: string) => (s.length > MAX_OUTPUT ? s.slice(s.length - MAX_OUTPUT) : s);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const secs = (ms: unknown) => `${fixed(num(ms) === null ? null : (ms as number) / 1000, 1)} s`;

/** The status event's fields. */
function applyStatus(s: LiveState, e: LiveEvent, now: number): LiveState {
  const started = (e.started_at as string | null | undefined) ?? null;
  const fresh = started !== null && started !== s.startedAt && e.status !== "idle";
  const base = fresh ? { ...initialLive(String(e.status)), startedAt: started } : s;
  const p = e.progress as Record<string, unknown> | undefined;
  const o = e.outcome as LiveOutcome | null | undefined;
  return {
    ...base,
    status: String(e.status),
    startedAt: started ?? base.startedAt,
    model: (e.model as string | null) ?? null,
    percent: num(p?.percent) ?? 0,
    phase: String(p?.phase ?? ""),
    detail: String(p?.detail ?? ""),
    etaS: num(p?.eta_s),
    etaAt: now,
    outcome: o ?? null,
  };
}

/** Applies one event (`now`: the client's clock, for the ETA). */
export function reduceLive(s: LiveState, e: LiveEvent, now = Date.now()): LiveState {
  // A line never continues the streamed text: it starts on a line of its own.
  const line = (text: string, from: LiveState = s) => ({
    ...from,
    output: clip(
      `${from.output}${from.output === "" || from.output.endsWith("\n") ? "" : "\n"}${text}\n`,
    ),
  });
  switch (e.type) {
    case "status":
      return applyStatus(s, e, now);
    case "job_start":
      return {
        ...line(`Benchmark of ${(e.models as string[]).length} model(s) on ${e.server}`),
        runs: [],
        hardware: [],
        profiling: e.profiling === true,
      };
    case "model_skip":
      return line(`skip ${e.key}: ${e.reason}`);
    case "model_start":
      return line(`== ${e.key} (${e.index}/${e.total}): loading`);
    case "model_loaded":
      return line(
        `  loaded${e.load_time_ms === null ? "" : ` in ${secs(e.load_time_ms)}`}; warmup`,
      );
    case "warmup_done":
      return line(`  warmup done in ${secs(e.ms)}`);
    case "run_start":
      return line(
        Number(e.parallel) > 1
          ? `parallel round ${e.run}/${e.runs}: ${e.parallel} requests at once…`
          : `run ${e.run}/${e.runs}${e.cell ? ` (${e.cell})` : ""}:`,
      );
    case "tokens":
      return { ...s, output: clip(s.output + String(e.text)) };
    case "run_end": {
      const f = e.figures as { tokens_per_sec?: number | null } | null;
      const speed = num(f?.tokens_per_sec);
      const next = line(e.ok ? `  → ${fixed(speed)} tok/s` : `  ✗ ${e.error}`);
      const point: SpeedPoint = { key: String(e.key), label: `run ${e.run}`, speed, kind: "run" };
      return { ...next, runs: [...s.runs, point] };
    }
    case "round_end": {
      const speed = num(e.tokens_per_sec);
      const next = line(
        `  → ${fixed(speed)} tok/s together, ${e.ok}/${e.parallel} ok in ${secs(e.wall_ms)}`,
      );
      const point: SpeedPoint = {
        key: String(e.key),
        label: `×${e.parallel} round ${e.round}`,
        speed,
        kind: "round",
      };
      return { ...next, runs: [...s.runs, point] };
    }
    case "load_level": {
      const what = e.mode === "concurrency" ? `${e.level} at once` : `${e.level} requests/s`;
      const f = e.figures as Record<string, number | null> | null;
      return line(
        f === null
          ? `load curve: ${what}…`
          : `  → ${f.ok}/${f.requests} ok, ${fixed(num(f.output_tokens_per_sec))} tok/s out, ` +
            `${fixed(num(f.requests_per_sec), 2)} req/s, latency p99 ${
              fixed(num(f.latency_ms_p99), 0)
            } ms`,
      );
    }
    case "model_end":
      return line(`${e.key}: ${e.status}${e.error ? ` (${e.error})` : ""}`);
    case "hardware": {
      const h = e.sample as Record<string, unknown>;
      const t = new Date(Number(h.time)).toISOString().slice(11, 19);
      const point = { t, temp: num(h.temp_c), cpu: num(h.cpu_percent), ram: num(h.ram_gb) };
      return { ...s, hardware: [...s.hardware, point].slice(-120) };
    }
    case "log": {
      const next = line(`[${e.level}] ${e.message}`);
      return e.level === "error" ? { ...next, errors: [...s.errors, String(e.message)] } : next;
    }
    case "job_end":
      return line(
        `Benchmark ${e.outcome}: ${e.tested} tested${
          e.partial ? ` (${e.partial} partial)` : ""
        }, ${e.failed} failed`,
      );
    default:
      return s;
  }
}

/** "about 1 min 20 s left" for an ETA in seconds. */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `about ${s} s left`;
  const m = Math.floor(s / 60);
  if (m < 60) return `about ${m} min ${s % 60} s left`;
  return `about ${Math.floor(m / 60)} h ${m % 60} min left`;
}
