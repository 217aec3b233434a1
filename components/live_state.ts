/**
 * The live view's state, folded from dashboard events (browser-safe, pure).
 *
 * @module
 */
import type { LiveEvent } from "./bench_events.ts";

/** What the live view shows. */
export interface LiveState {
  status: string;
  model: string | null;
  percent: number;
  outcome: string | null;
  /** Output text, capped at {@linkcode MAX_OUTPUT} characters. */
  output: string;
  /** tokens/s per finished run. */
  runs: { label: string; speed: number | null }[];
  /** Hardware samples (last 120). */
  hardware: { t: string; temp: number | null; cpu: number | null; ram: number | null }[];
}

/** Longest output kept. */
export const MAX_OUTPUT = 20_000;

/** The state before the first event. */
export function initialLive(status: string): LiveState {
  return { status, model: null, percent: 0, outcome: null, output: "", runs: [], hardware: [] };
}

const clip = (s: string) => (s.length > MAX_OUTPUT ? s.slice(s.length - MAX_OUTPUT) : s);
const num = (v: unknown) => (typeof v === "number" ? v : null);

/** Applies one event. */
export function reduceLive(s: LiveState, e: LiveEvent): LiveState {
  const line = (text: string) => ({ ...s, output: clip(`${s.output}${text}\n`) });
  switch (e.type) {
    case "status": {
      const p = e.progress as { percent?: number } | undefined;
      const o = e.outcome as { outcome?: string } | null;
      return {
        ...s,
        status: String(e.status),
        model: (e.model as string | null) ?? null,
        percent: p?.percent ?? 0,
        outcome: o?.outcome ?? null,
      };
    }
    case "job_start":
      return {
        ...line(`Benchmark of ${(e.models as string[]).length} model(s) on ${e.server}`),
        runs: [],
        hardware: [],
      };
    case "model_skip":
      return line(`skip ${e.key}: ${e.reason}`);
    case "model_start":
      return line(`== ${e.key} (${e.index}/${e.total})`);
    case "run_start":
      return line(`run ${e.run}/${e.runs}:`);
    case "tokens":
      return { ...s, output: clip(s.output + String(e.text)) };
    case "run_end": {
      const f = e.figures as { tokens_per_sec?: number | null } | null;
      const speed = num(f?.tokens_per_sec);
      const next = line(
        e.ok ? `\n  → ${speed === null ? "–" : speed.toFixed(1)} tok/s` : `\n  ✗ ${e.error}`,
      );
      return { ...next, runs: [...s.runs, { label: `${e.key}#${e.run}`, speed }] };
    }
    case "model_end":
      return line(`${e.key}: ${e.status}${e.error ? ` (${e.error})` : ""}`);
    case "hardware": {
      const h = e.sample as Record<string, unknown>;
      const t = new Date(Number(h.time)).toISOString().slice(11, 19);
      const point = { t, temp: num(h.temp_c), cpu: num(h.cpu_percent), ram: num(h.ram_gb) };
      return { ...s, hardware: [...s.hardware, point].slice(-120) };
    }
    case "log":
      return line(`[${e.level}] ${e.message}`);
    case "job_end":
      return line(`Benchmark ${e.outcome}: ${e.tested} tested, ${e.failed} failed`);
    default:
      return s;
  }
}
