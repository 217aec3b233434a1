/**
 * Renders job events for a person: a progress bar per model and per run on a terminal (speed of
 * the last run, ETA of the whole job) with "waiting for the server… Ns" after it while the server is
 * silent, plain lines otherwise.
 *
 * @module
 */
import type { WaitReporter } from "../modelserver/mod.ts";
import { fixed } from "../shared/format.ts";
import { shortModelName } from "../shared/model_name.ts";
import type { BenchEvent } from "./events.ts";

/** The event consumer, plus the "waiting for the server… Ns" reporter of the same line. */
export type Progress = ((e: BenchEvent) => void) & { waiting: WaitReporter };

/** Where the renderer writes. */
export interface ProgressOutput {
  /** Writes text as it is (no newline added). */
  write(text: string): void;
  /** True on a terminal: bars are redrawn in place. */
  tty: boolean;
}

const fmt = (n: number | null | undefined, digits = 1) => fixed(n, digits, "-");

/** `1h02m`, `3m05s`, `12s`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600) {
    return `${Math.floor(s / 3600)}h${String(Math.floor(s % 3600 / 60)).padStart(2, "0")}m`;
  }
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${s}s`;
}

/** A text bar of `width` cells. */
export function bar(done: number, total: number, width = 20): string {
  const filled = total > 0 ? Math.round(width * Math.min(1, done / total)) : 0;
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
}

/** Creates an event consumer that renders progress. */
export function createProgress(
  out: ProgressOutput,
  options: { debug?: boolean; now?: () => number } = {},
): Progress {
  const now = options.now ?? (() => performance.now());
  let models = 0;
  let runsPerModel = 0;
  let modelIndex = 0;
  let runsDone = 0;
  let started = now();
  let lastSpeed: number | null = null;
  let current = "";
  let live = false;
  let shownStatus = "";
  /** Skip lines shown, and the ones held back after the first ten. */
  let skipsShown = 0;
  let skipsHidden = 0;
  const line = (text: string) => {
    if (live) out.write("\r\x1b[2K");
    live = false;
    shownStatus = "";
    out.write(text + "\n");
  };
  const status = (text: string) => {
    if (!out.tty) return;
    out.write(`\r\x1b[2K${text}`);
    live = true;
    shownStatus = text;
  };
  const waiting: WaitReporter = (what, seconds) => {
    if (!out.tty) return;
    if (what === null) {
      if (live) out.write(`\r\x1b[2K${shownStatus}`);
      live = shownStatus !== "";
      return;
    }
    const wait = `waiting for the server… ${seconds}s (${what})`;
    out.write(`\r\x1b[2K${shownStatus ? `${shownStatus}  ` : ""}${wait}`);
    live = true;
  };
  const eta = () => {
    const total = models * runsPerModel;
    if (runsDone === 0 || total === 0) return "-";
    return formatDuration((now() - started) / runsDone * (total - runsDone));
  };
  const consume = (e: BenchEvent): void => {
    if (e.type !== "model_skip" && skipsHidden > 0) {
      line(`  … and ${skipsHidden} more skipped (--list-models shows each with its reason)`);
      skipsHidden = 0;
    }
    switch (e.type) {
      case "job_start":
        models = e.models.length;
        runsPerModel = e.runs;
        started = now();
        line(
          `Benchmarking ${models} model(s) × ${e.runs} run(s) on ${e.server}` +
            (e.skipped.length ? ` (${e.skipped.length} skipped)` : ""),
        );
        break;
      case "model_skip":
        // Every skip is said (no silent exclusion); past ten, a count stands for the rest,
        // except those whose filter field the server did not report.
        if (options.debug || e.unknown || skipsShown < 10) {
          line(`  skip ${shortModelName(e.key)}: ${e.reason}`);
          skipsShown++;
        } else skipsHidden++;
        break;
      case "model_start":
        modelIndex = e.index;
        current = shortModelName(e.key);
        line(`[${e.index}/${e.total}] ${current}: loading`);
        break;
      case "model_loaded":
        status(`[${modelIndex}/${models}] ${current}: warmup`);
        if (!out.tty) {
          line(
            `  loaded${
              e.load_time_ms === null ? "" : ` in ${fmt(e.load_time_ms / 1000, 2)} s`
            }; warmup`,
          );
        }
        break;
      case "run_start":
        status(
          `[${modelIndex}/${models}] ${current} ${bar(e.run - 1, e.runs)} run ${e.run}/${e.runs}` +
            `${e.cell ? ` ${e.cell}` : ""}${e.parallel > 1 ? ` ×${e.parallel}` : ""}  last ${
              fmt(lastSpeed)
            } tok/s  ETA ${eta()}`,
        );
        break;
      case "run_end":
        if (e.ok) {
          runsDone++;
          lastSpeed = e.figures?.tokens_per_sec ?? null;
        }
        if (e.excluded) {
          line(`  run ${e.run}/${e.runs} ${e.excluded}`);
        } else if (!out.tty || !e.ok) {
          line(
            e.ok
              ? `  run ${e.run}/${e.runs}: ${fmt(lastSpeed)} tok/s, TTFT ${
                fmt(e.figures?.ttft_ms, 0)
              } ms, ` +
                `${e.figures?.tokens_out ?? "-"} tokens${
                  e.retried ? " (model reloaded, repeated once)" : ""
                }`
              : `  run ${e.run}/${e.runs} failed: ${e.error}`,
          );
        } else {
          status(
            `[${modelIndex}/${models}] ${current} ${bar(e.run, e.runs)} run ${e.run}/${e.runs}` +
              `  last ${fmt(lastSpeed)} tok/s  ETA ${eta()}`,
          );
        }
        break;
      case "round_end":
        line(
          `  parallel round ${e.round}/${e.rounds}: ${e.ok}/${e.parallel} requests ok, ` +
            `${fmt(e.tokens_per_sec)} tok/s together in ${fmt(e.wall_ms / 1000, 1)} s`,
        );
        break;
      case "model_end":
        line(
          e.status === "ok" || e.status === "partial"
            ? `  ${e.status === "ok" ? "✓" : "◐ partial:"} ${shortModelName(e.key)}: ${
              (e.figures?.identities ?? 1) > 1
                ? `${e.figures!.identities} workloads, each in the tables below`
                : `${fmt(e.figures?.tokens_per_sec_mean, 2)} tok/s, TTFT ${
                  fmt(e.figures?.ttft_ms_mean, 0)
                } ms`
            }` +
              ` (${e.figures?.runs_ok ?? 0} run(s)${
                e.figures?.runs_failed ? `, ${e.figures.runs_failed} failed` : ""
              }${
                e.figures?.runs_excluded
                  ? `, ${e.figures.runs_excluded} excluded: the model was reloaded`
                  : ""
              })`
            : `  ✗ ${shortModelName(e.key)}: ${e.status}${e.error ? ` — ${e.error}` : ""}`,
        );
        break;
      case "load_level": {
        const what = e.mode === "concurrency" ? `concurrency ${e.level}` : `${e.level} req/s`;
        if (e.figures === null) {
          status(`[${modelIndex}/${models}] ${current}: load curve, ${what}`);
          break;
        }
        const f = e.figures;
        line(
          `  load ${what}: ${f.ok}/${f.requests} ok, ${fmt(f.output_tokens_per_sec)} tok/s out, ` +
            `${fmt(f.requests_per_sec, 2)} req/s, latency p99 ${fmt(f.latency_ms_p99, 0)} ms` +
            (f.goodput_rps === null ? "" : `, goodput ${fmt(f.goodput_rps, 2)} req/s`),
        );
        break;
      }
      case "log":
        if (options.debug || e.level === "warn" || e.level === "error") {
          line(`  ${e.level}: ${e.message}`);
        }
        break;
      case "job_end":
        line(
          `${e.outcome === "stopped" ? "Stopped after" : "Done in"} ${
            formatDuration(now() - started)
          }: ${e.tested} measured${
            e.partial ? ` (${e.partial} partial: some runs failed)` : ""
          }, ` +
            `${e.failed} failed, ${e.skipped} skipped${e.error ? ` — ${e.error}` : ""}`,
        );
        break;
      default:
        break;
    }
  };
  return Object.assign(consume, { waiting });
}
