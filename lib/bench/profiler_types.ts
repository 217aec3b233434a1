/**
 * The profiler seen by the benchmark: a background sampler of GPU, CPU and RAM.
 *
 * @module
 */
import type { HardwareSample } from "./events.ts";

/** Series a profiler samples. */
export const SERIES = [
  "temp_c",
  "power_w",
  "gpu_vram_gb",
  "gtt_gb",
  "cpu_percent",
  "ram_gb",
] as const;

/** min/max/mean per series (`temp_c_min`...); null where nothing was sampled. */
export type HardwareSummary = Record<string, number | null>;

/** A background sampler. */
export interface Profiler {
  /** Starts sampling; every sample also goes to `onSample`. */
  start(onSample: (s: HardwareSample) => void): void;
  /** Stops sampling and returns the summary of the samples since `start`. */
  stop(): Promise<HardwareSummary>;
  /** The newest sample, or null. */
  latest(): HardwareSample | null;
  /** Takes one sample now (used to wait for temperature/power limits). */
  sample(): Promise<HardwareSample>;
  /** Detected GPU (e.g. `NVIDIA GeForce RTX 4090`), or null without a GPU. */
  gpuName(): string | null;
  /** GPU memory in use (MB), or null without a GPU. */
  vramUsedMb(): Promise<number | null>;
  /**
   * One sentence per sensor that exists but cannot be read here (a permission, a tool that
   * fails), e.g. `CPU use cannot be read: …`; empty when every reading works. Known after a sample.
   */
  unreadable(): string[];
}
