/**
 * `--compare-with latest|<file>|<id>`: finds an earlier JSON report in the results folder (and
 * only there), and adds per model variant the change of speed and time to first token with a
 * Welch's t-test on the per-run samples.
 *
 * @module
 */
import { basename, join, resolve, sep } from "node:path";
import { parseJsonText } from "../config/mod.ts";
import { badRequest, UnprocessableError } from "../error.ts";
import {
  type ComparisonSource,
  type MetricDelta,
  num,
  type ReportEntry,
  samplesOf,
  type TrendPoint,
} from "./model.ts";
import { welchTest } from "./welch.ts";
import { seriesId, UNKNOWN_MACHINE } from "../store/mod.ts";

/** File names of JSON reports; group 1 is the report id. */
export const REPORT_JSON = /^benchmark_results_([A-Za-z0-9_-]+)\.json$/;

/** One result of an earlier report. */
export interface PreviousResult {
  /** The result's id in its store, and when it finished: the same pair is the same result. */
  id: number | null;
  finished_at: string | null;
  /** The identity beside the variant: what measured it and with which parameters. */
  backend: string | null;
  params_hash: string | null;
  /** The machine it ran on (null: unknown, or a report from before machines were recorded). */
  machine_id: string | null;
  machine_name: string | null;
  model_key: string | null;
  model_name: string | null;
  quantization: string | null;
  tokens_per_sec_mean: number | null;
  ttft_ms_mean: number | null;
  speed_samples: number[];
  ttft_samples: number[];
}

/** An earlier report as the comparison reads it. */
export interface PreviousReport {
  source: ComparisonSource;
  results: PreviousResult[];
}

/** The JSON report files of a folder, oldest first (an absent folder has none). */
export async function listReports(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && REPORT_JSON.test(e.name)) names.push(e.name);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return names.sort();
}

/**
 * Resolves a `--compare-with` value to a JSON report inside `resultsDir`; null for `latest` when
 * there is no earlier report. Anything with a path separator or `..`, or that resolves outside
 * the folder (a symbolic link), is refused with a 400.
 */
export async function resolveCompareFile(resultsDir: string, ref: string): Promise<string | null> {
  const shown = `Cannot compare with '${ref}'`;
  if (ref === "latest") {
    const last = (await listReports(resultsDir)).at(-1);
    return last ? join(resultsDir, last) : null;
  }
  if (ref === "" || ref.includes("/") || ref.includes("\\") || ref.includes("..")) {
    throw badRequest(
      `${shown}: give 'latest', a report file name or a report id from the results folder '${resultsDir}', not a path`,
    );
  }
  const name = ref.endsWith(".json")
    ? ref
    : ref.startsWith("benchmark_results_")
    ? `${ref}.json`
    : `benchmark_results_${ref}.json`;
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw badRequest(`${shown}: not a report file name or report id`);
  }
  const file = join(resultsDir, name);
  let real: string;
  let realDir: string;
  try {
    realDir = await Deno.realPath(resultsDir);
    real = await Deno.realPath(file);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    throw badRequest(`${shown}: there is no report '${name}' in '${resultsDir}'`);
  }
  if (!resolve(real).startsWith(resolve(realDir) + sep)) {
    throw badRequest(`${shown}: '${name}' resolves outside the results folder '${resultsDir}'`);
  }
  return file;
}

const numOrNull = (v: unknown) => typeof v === "number" && Number.isFinite(v) ? v : null;
const strOrNull = (v: unknown) => typeof v === "string" ? v : null;

function runSamples(runs: unknown, column: string): number[] {
  if (!Array.isArray(runs)) return [];
  return samplesOf(runs.filter((r) => r && typeof r === "object"), column);
}

/** Reads an earlier JSON report (`results` array of this tool's reports). */
export async function loadPreviousReport(file: string): Promise<PreviousReport> {
  const data = parseJsonText(
    await Deno.readTextFile(file),
    `the report '${basename(file)}'`,
  ) as Record<string, unknown>;
  const list = Array.isArray(data) ? data : data?.results;
  if (!Array.isArray(list)) {
    throw new UnprocessableError(`Cannot compare with '${file}': it has no 'results' list`);
  }
  const name = file.split(/[\\/]/).at(-1)!;
  return {
    source: {
      file: name,
      report_id: strOrNull(data?.report_id) ?? REPORT_JSON.exec(name)?.[1] ?? name,
      generated_at: strOrNull(data?.generated_at),
    },
    results: list.filter((r) => r && typeof r === "object").map((r) => ({
      id: numOrNull(r.id),
      finished_at: strOrNull(r.finished_at),
      backend: strOrNull(r.backend),
      params_hash: strOrNull(r.params_hash),
      machine_id: strOrNull(r.machine_id),
      machine_name: strOrNull(r.machine_name),
      model_key: strOrNull(r.model_key),
      model_name: strOrNull(r.model_name),
      quantization: strOrNull(r.quantization),
      tokens_per_sec_mean: numOrNull(r.tokens_per_sec_mean ?? r.avg_tokens_per_sec),
      ttft_ms_mean: numOrNull(r.ttft_ms_mean),
      speed_samples: runSamples(r.runs, "tokens_per_sec"),
      ttft_samples: runSamples(r.runs, "ttft_ms"),
    })),
  };
}

/** The change of one metric, with significance when both sides have two or more runs. */
export function metricDelta(
  previousMean: number | null,
  currentMean: number | null,
  previous: number[],
  current: number[],
): MetricDelta | null {
  if (previousMean === null || currentMean === null || previousMean <= 0) return null;
  const test = welchTest(current, previous);
  return {
    previous_mean: previousMean,
    current_mean: currentMean,
    delta_pct: (currentMean - previousMean) / previousMean * 100,
    p_value: test ? test.p : null,
    significant: test ? test.p < 0.05 : null,
    n_previous: previous.length,
    n_current: current.length,
  };
}

/**
 * The earlier result comparable with `e` — like with like: the same variant, backend,
 * parameters (the parameter hash covers the prompt, the context, every sampling and load value,
 * the parallelism and the workload) and machine, and not `e` itself — or why there is none.
 */
export function findComparable(
  previous: PreviousReport,
  e: ReportEntry,
): PreviousResult | string {
  const sameVariant = previous.results.filter((p) =>
    p.model_key === e.row.model_key ||
    (p.model_key === null && p.model_name === e.row.model_name &&
      p.quantization === e.row.quantization)
  );
  if (sameVariant.length === 0) return "not in the earlier report";
  // The same stored result (an earlier report of the same store, e.g. `--export-only` after the
  // benchmark's own report): its id, end and mean speed all agree.
  const others = sameVariant.filter((p) =>
    !(p.id === e.row.id && p.finished_at === (e.row.finished_at ?? null) &&
      p.tokens_per_sec_mean === num(e, "tokens_per_sec_mean"))
  );
  if (others.length === 0) return "the earlier report holds this same result";
  const here = strOrNull(e.row.machine_id);
  const like = others.filter((p) =>
    p.backend === e.row.backend && p.params_hash === e.row.params_hash && p.machine_id === here
  );
  if (like.length > 0) {
    // The newest of them (a report may hold a variant's history).
    return like.reduce((a, b) => (b.finished_at ?? "") > (a.finished_at ?? "") ? b : a);
  }
  const p = others[0]!;
  if (p.backend === null || p.params_hash === null) {
    return "the earlier report does not record its backend and parameters";
  }
  if (p.backend !== e.row.backend) {
    return `measured there with another backend (${p.backend}, here ${e.row.backend})`;
  }
  if (p.params_hash !== e.row.params_hash) {
    return `measured there with other parameters (${p.params_hash}, here ${e.row.params_hash})`;
  }
  const name = (id: string | null, n: unknown) =>
    id === null ? UNKNOWN_MACHINE : typeof n === "string" ? n : id;
  return `measured there on another machine (${name(p.machine_id, p.machine_name)}, here ${
    name(here, e.row.machine_name)
  })`;
}

/**
 * Sets `comparison` on every entry with a comparable earlier result, and `comparison_note` on the
 * others; returns how many were compared.
 */
export function applyComparison(entries: ReportEntry[], previous: PreviousReport): number {
  let matched = 0;
  for (const e of entries) {
    const p = findComparable(previous, e);
    if (typeof p === "string") {
      e.comparison_note = p;
      continue;
    }
    matched++;
    e.comparison = {
      previous_report_id: previous.source.report_id,
      previous_generated_at: previous.source.generated_at,
      speed: metricDelta(
        p.tokens_per_sec_mean,
        num(e, "tokens_per_sec_mean"),
        p.speed_samples,
        samplesOf(e.runs, "tokens_per_sec"),
      ),
      ttft: metricDelta(
        p.ttft_ms_mean,
        num(e, "ttft_ms_mean"),
        p.ttft_samples,
        samplesOf(e.runs, "ttft_ms"),
      ),
    };
  }
  return matched;
}

/**
 * The trend line of a result: its identity (variant, backend, parameters hash, machine), as
 * Comparison's.
 */
export function trendKey(
  r: {
    model_key: string | null;
    backend: string | null;
    params_hash: string | null;
    machine_id?: unknown;
  },
): string {
  return seriesId(r.model_key, r.backend, r.params_hash, r.machine_id);
}

/**
 * Speed history per identity from the JSON reports of the folder (newest 100) plus the current
 * entries; only identities with two or more points are kept. Unreadable old reports are skipped.
 */
export async function speedTrend(
  resultsDir: string,
  entries: readonly ReportEntry[],
  currentId: string,
): Promise<Record<string, TrendPoint[]>> {
  const keys = new Set(entries.map((e) => trendKey(e.row)));
  const trend: Record<string, TrendPoint[]> = {};
  for (const name of (await listReports(resultsDir)).slice(-100)) {
    let report: PreviousReport;
    try {
      report = await loadPreviousReport(join(resultsDir, name));
    } catch {
      continue; // an unreadable old report has no points; the comparison itself reports errors
    }
    for (const r of report.results) {
      // Like with like: an older result without its identity (no parameters hash) has no line.
      if (!r.model_key || !r.params_hash || r.tokens_per_sec_mean === null) continue;
      const key = trendKey(r);
      if (keys.has(key)) {
        (trend[key] ??= []).push({
          report_id: report.source.report_id,
          tokens_per_sec: r.tokens_per_sec_mean,
        });
      }
    }
  }
  for (const e of entries) {
    const speed = num(e, "tokens_per_sec_mean");
    if (speed !== null) {
      (trend[trendKey(e.row)] ??= []).push({ report_id: currentId, tokens_per_sec: speed });
    }
  }
  return Object.fromEntries(Object.entries(trend).filter(([, points]) => points.length >= 2));
}
