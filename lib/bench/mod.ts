/**
 * The benchmark: discovery, filters, cache, the per-model sequence, statistics, parallel
 * rounds, limits and progress.
 *
 * @module
 */
export { measuredParams, paramsHash } from "./cache_key.ts";
export { importFile, type ImportSummary, LLAMA_BENCH, VLLM_BENCH } from "./import/mod.ts";
export type { MeasuredParams } from "./cache_key.ts";
export { isAbort, JobController } from "./job_control.ts";
export type { JobControl } from "./job_control.ts";
export { connect, lmsFor } from "./connect.ts";
export type { ConnectDeps } from "./connect.ts";
export { discoverTargets, modelsFromLms } from "./discovery.ts";
export type { BenchEvent, EventSink, HardwareSample, ModelFigures, RunFigures } from "./events.ts";
export { applyFilters, smallest } from "./filters.ts";
export { runJob, selectTargets } from "./job.ts";
export type { JobDeps, JobSummary } from "./job.ts";
export { LIMIT_WAIT_MS, waitForLimits } from "./limits.ts";
export { measureOnce, promptWithNonce, randomNonce, samplingOf } from "./measure.ts";
export { aggregateRuns, runMetrics } from "./metrics.ts";
export type { RunMetrics } from "./metrics.ts";
export { loadOptionsOf, runModel } from "./model_run.ts";
export { aggregateParallel, parallelRound } from "./parallel.ts";
export { SERIES } from "./profiler_types.ts";
export type { HardwareSummary, Profiler } from "./profiler_types.ts";
export { bar, createProgress, formatDuration } from "./progress.ts";
export { POSITIVE, quantile, summarize, summaryColumns } from "../stats.ts";
export type { Summary } from "../stats.ts";
export {
  gridCells,
  gridTable,
  latencyTable,
  lengthText,
  loadTable,
  parallelTable,
  resultsTable,
} from "./table.ts";
export { measuredRunsOf, percentileLabel, percentilesOf } from "./table_percentiles.ts";
export {
  levelRow,
  markKnee,
  meetsSlo,
  poissonGaps,
  runConcurrency,
  runRate,
} from "./load_curve.ts";
export type { LoadMode, LoadRequest, Slo } from "./load_curve.ts";
export { cellLabel, cellsOf, gridRows, stoppedEarly } from "./workload.ts";
export { WorkloadPlan } from "./workload_plan.ts";
export type { Cell, CellRun } from "./workload.ts";
export { fillerText, PromptBuilder } from "./prompt_builder.ts";
export { paramsBillions, quantizationOfKey, sizeGiB, targetOf } from "./target.ts";
export type { Target } from "./target.ts";
export { defaultProfiler, runBenchmarkCommand } from "./cli_run.ts";
export { listing, listingText, runListModels } from "./list_models.ts";
export type { ListedModel } from "./list_models.ts";
export { appliedParams, NOT_APPLIED, notAppliedNames } from "./applied.ts";
export type { AppliedParams, AppliedStatus, AppliedValue } from "./applied.ts";
export type { CommandHooks } from "./cli_run.ts";
export { createProfiler, HardwareProfiler, summarizeSamples } from "./profiler.ts";
export type { ProfilerOptions } from "./profiler.ts";
export { cpuPercent, hostFiles, platformSensors } from "./profiler_host.ts";
export type { HostFiles, HostSensors } from "./profiler_host.ts";
export { detectGpu } from "./profiler_gpu.ts";
export {
  captureMachine,
  localMachineId,
  type MachineDeps,
  machineDeps,
  type MachineGpu,
  type MachineInfo,
  machineSummary,
  type ServerFacts,
  type SystemFacts,
} from "./machine.ts";
export { denoIdFile, type IdFile, idFromSystem, machineId } from "./machine_id.ts";
export type { GpuSource } from "./profiler_gpu.ts";
export type { GpuReading } from "./profiler_smi.ts";
export {
  type Action,
  type FilterOptions,
  type FullWorkload,
  type ResolvedRun,
  type RunOptions,
  workloadOf,
  type WorkloadOptions,
} from "./options.ts";
export { loadDataset } from "./dataset.ts";
export type { Dataset, DatasetEntry } from "./dataset.ts";
