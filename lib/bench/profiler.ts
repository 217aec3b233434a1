/**
 * The hardware profiler (`--enable-profiling`): a background sampler of the GPU (temperature,
 * power, VRAM, AMD GTT unless `--disable-gtt`), CPU use and RAM in use, running while the benchmark
 * measures (it calls `start`/`stop` around the measured runs). `stop` returns min/max/mean of every
 * series in {@linkcode SERIES}; series without a source (no GPU here) are null, nothing fails. A
 * sensor this program may not read is named by `unreadable()`, so the benchmark can say so.
 *
 * File reads (rooted, so tests give a fake `/sys`), CPU and memory sensors, commands and the
 * clock are injected.
 *
 * @example
 * ```ts ignore
 * import { createProfiler } from "./profiler.ts";
 * const p = createProfiler({ disable_gtt: false });
 * p.start((s) => console.log(s.cpu_percent));
 * const summary = await p.stop(); // { cpu_percent_min: ..., temp_c_mean: null, ... }
 * ```
 *
 * @module
 */
import { type Clock, systemClock } from "../clock.ts";
import { denoRunner, type ProcessRunner } from "../modelserver/mod.ts";
import type { HardwareSample } from "./events.ts";
import { detectGpu, type GpuSource } from "./profiler_gpu.ts";
import { messageOf } from "../error.ts";
import {
  CpuMeter,
  type HostFiles,
  hostFiles,
  type HostSensors,
  platformSensors,
} from "./profiler_host.ts";
import { NO_READING } from "./profiler_smi.ts";
import { type HardwareSummary, type Profiler, SERIES } from "./profiler_types.ts";

/** Options of {@linkcode createProfiler}. */
export interface ProfilerOptions {
  /** Leave the AMD GTT series out (`--disable-gtt`). @default false */
  disable_gtt?: boolean;
  /** Host files (the GPU's sysfs). @default hostFiles("/") */
  files?: HostFiles;
  /** CPU and memory. @default platformSensors */
  sensors?: HostSensors;
  /** Runs `nvidia-smi` and `rocm-smi`. @default denoRunner */
  runner?: ProcessRunner;
  /** @default systemClock */
  clock?: Clock;
  /** Sampling period. @default 1000 */
  intervalMs?: number;
}

/** min/max/mean of every series over the samples (null where a series has no value). */
export function summarizeSamples(samples: readonly HardwareSample[]): HardwareSummary {
  const out: HardwareSummary = {};
  for (const series of SERIES) {
    const xs = samples.map((s) => s[series]).filter((v): v is number =>
      typeof v === "number" && Number.isFinite(v)
    );
    out[`${series}_min`] = xs.length ? Math.min(...xs) : null;
    out[`${series}_max`] = xs.length ? Math.max(...xs) : null;
    out[`${series}_mean`] = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  }
  return out;
}

/** The sampler. */
export class HardwareProfiler implements Profiler {
  readonly #files: HostFiles;
  readonly #sensors: HostSensors;
  /** Sensor → why it cannot be read (kept until the profiler is gone). */
  readonly #unreadable = new Map<string, string>();
  readonly #runner: ProcessRunner;
  readonly #clock: Clock;
  readonly #interval: number;
  readonly #gtt: boolean;
  readonly #loopCpu: CpuMeter;
  readonly #adhocCpu: CpuMeter;
  #gpu: Promise<GpuSource | null> | null = null;
  #gpuName: string | null = null;
  #samples: HardwareSample[] = [];
  #latest: HardwareSample | null = null;
  #cancel: (() => void) | null = null;
  #inflight: Promise<void> | null = null;
  #onSample: (s: HardwareSample) => void = () => {};
  #lastAt = 0;

  constructor(options: ProfilerOptions = {}) {
    this.#files = options.files ?? hostFiles("/");
    this.#sensors = options.sensors ?? platformSensors;
    this.#runner = options.runner ?? denoRunner;
    this.#clock = options.clock ?? systemClock;
    this.#interval = options.intervalMs ?? 1000;
    this.#gtt = !options.disable_gtt;
    this.#loopCpu = new CpuMeter(this.#sensors);
    this.#adhocCpu = new CpuMeter(this.#sensors);
  }

  /** Detects the GPU once (later calls share the result). */
  detect(): Promise<GpuSource | null> {
    this.#gpu ??= detectGpu({
      files: this.#files,
      runner: this.#runner,
      now: () => this.#clock.now(),
    }).catch((err) => {
      this.#refused("GPU", err);
      return null;
    }).then((gpu) => {
      this.#gpuName = gpu?.name ?? null;
      return gpu;
    });
    return this.#gpu;
  }

  async #take(cpu: CpuMeter): Promise<HardwareSample> {
    const gpu = await this.detect();
    const reading = gpu
      ? await gpu.read(this.#gtt).catch((err) => {
        this.#refused("GPU", err);
        return NO_READING;
      })
      : NO_READING;
    const cpuPercent = this.#read("CPU use", () => cpu.read());
    const ram = this.#read("RAM in use", () => this.#sensors.ramUsedGiB());
    const sample: HardwareSample = {
      time: this.#clock.now(),
      temp_c: reading.temp_c,
      power_w: reading.power_w,
      gpu_vram_gb: reading.vram_gb,
      gtt_gb: this.#gtt ? reading.gtt_gb : null,
      cpu_percent: cpuPercent,
      ram_gb: ram,
    };
    this.#latest = sample;
    return sample;
  }

  /** A sensor's reading, or null with the reason kept when it cannot be read. */
  #read(sensor: string, read: () => number | null): number | null {
    try {
      return read();
    } catch (err) {
      this.#refused(sensor, err);
      return null;
    }
  }

  #refused(sensor: string, err: unknown): void {
    if (!this.#unreadable.has(sensor)) {
      this.#unreadable.set(sensor, `${sensor} cannot be read: ${messageOf(err)}`);
    }
  }

  unreadable(): string[] {
    return [...this.#unreadable.values()];
  }

  #tick(): Promise<void> {
    if (this.#inflight) return this.#inflight;
    this.#inflight = this.#take(this.#loopCpu).then((s) => {
      this.#lastAt = this.#clock.now();
      this.#samples.push(s);
      this.#onSample(s);
    }).finally(() => {
      this.#inflight = null;
    });
    return this.#inflight;
  }

  start(onSample: (s: HardwareSample) => void): void {
    this.#cancel?.();
    this.#samples = [];
    this.#onSample = onSample;
    this.#lastAt = this.#clock.now();
    // The first read is the CPU baseline; every sample then covers one period.
    this.#read("CPU use", () => this.#loopCpu.read());
    void this.detect();
    this.#cancel = this.#clock.setInterval(() => void this.#tick(), this.#interval);
  }

  async stop(): Promise<HardwareSummary> {
    if (this.#cancel === null) return summarizeSamples([]);
    this.#cancel();
    this.#cancel = null;
    await this.#inflight;
    // One last sample covers the tail of the runs (or a run shorter than the period).
    if (this.#samples.length === 0 || this.#clock.now() - this.#lastAt >= this.#interval / 2) {
      await this.#tick();
    }
    this.#onSample = () => {};
    return summarizeSamples(this.#samples);
  }

  latest(): HardwareSample | null {
    return this.#latest;
  }

  sample(): Promise<HardwareSample> {
    return this.#take(this.#adhocCpu);
  }

  gpuName(): string | null {
    return this.#gpuName;
  }

  async vramUsedMb(): Promise<number | null> {
    const gpu = await this.detect();
    if (gpu === null) return null;
    const r = await gpu.read(false).catch(() => NO_READING);
    return r.vram_gb === null ? null : r.vram_gb * 1024;
  }
}

/** Creates the profiler of `--enable-profiling`. */
export function createProfiler(options: ProfilerOptions = {}): HardwareProfiler {
  return new HardwareProfiler(options);
}
