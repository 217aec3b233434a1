/**
 * GPU detection of the profiler, first match wins: `nvidia-smi`; AMD through sysfs (cheap file
 * reads, GTT included) with `rocm-smi` filling what sysfs lacks, or `rocm-smi` alone; Intel through
 * sysfs. No GPU is a normal case: {@linkcode detectGpu} returns null and the GPU series stay null.
 *
 * @module
 */
import type { ProcessRunner } from "../modelserver/mod.ts";
import type { HostFiles } from "./profiler_host.ts";
import {
  gpuLabel,
  type GpuReading,
  NO_READING,
  NVIDIA_QUERY,
  NVIDIA_SMI_PATHS,
  parseNvidiaSmi,
  parseRocmProductNames,
  parseRocmSmi,
  ROCM_QUERY,
  ROCM_SMI_PATHS,
  runFirst,
} from "./profiler_smi.ts";
import { findSysfsCards, sysfsCardName, SysfsReader } from "./profiler_sysfs.ts";

/** A detected GPU source. */
export interface GpuSource {
  /** e.g. `NVIDIA GeForce RTX 4090`, `2 × AMD Radeon RX 7900 XTX`. */
  name: string;
  /** How it is read: `nvidia-smi`, `rocm-smi`, `sysfs` or `sysfs+rocm-smi`. */
  tool: string;
  /** One reading; GTT stays null when `gtt` is false (`--disable-gtt`). */
  read(gtt: boolean): Promise<GpuReading>;
}

/** What detection needs. */
export interface GpuDeps {
  files: HostFiles;
  runner: ProcessRunner;
  /** Milliseconds, for power from energy counters. */
  now: () => number;
}

const fill = (a: GpuReading, b: GpuReading | null): GpuReading =>
  b === null ? a : {
    temp_c: a.temp_c ?? b.temp_c,
    power_w: a.power_w ?? b.power_w,
    vram_gb: a.vram_gb ?? b.vram_gb,
    gtt_gb: a.gtt_gb ?? b.gtt_gb,
  };

const noGtt = (r: GpuReading, gtt: boolean): GpuReading => (gtt ? r : { ...r, gtt_gb: null });

async function nvidia(deps: GpuDeps): Promise<GpuSource | null> {
  const first = await runFirst(deps.runner, NVIDIA_SMI_PATHS, NVIDIA_QUERY);
  const parsed = first === null ? null : parseNvidiaSmi(first.stdout);
  if (first === null || parsed === null) return null;
  return {
    name: gpuLabel(parsed.names) ?? "NVIDIA GPU",
    tool: "nvidia-smi",
    read: async () => {
      const out = await runFirst(deps.runner, [first.cmd], NVIDIA_QUERY);
      return (out && parseNvidiaSmi(out.stdout)?.reading) ?? NO_READING;
    },
  };
}

async function amdOrIntel(deps: GpuDeps): Promise<GpuSource | null> {
  const cards = await findSysfsCards(deps.files);
  const amdCards = cards.filter((c) => c.vendor === "amd");
  const rocm = await runFirst(deps.runner, ROCM_SMI_PATHS, ROCM_QUERY);
  const rocmOk = rocm !== null && parseRocmSmi(rocm.stdout) !== null;
  const readRocm = async () => {
    if (!rocmOk) return null;
    const out = await runFirst(deps.runner, [rocm.cmd], ROCM_QUERY);
    return out === null ? null : parseRocmSmi(out.stdout);
  };
  if (amdCards.length > 0 || rocmOk) {
    const names = rocmOk
      ? parseRocmProductNames(
        (await runFirst(deps.runner, [rocm.cmd], ["--showproductname", "--json"]))?.stdout ?? "",
      )
      : [];
    const label = gpuLabel(names.length ? names : amdCards.map(sysfsCardName)) ?? "AMD GPU";
    if (amdCards.length === 0) {
      return {
        name: label,
        tool: "rocm-smi",
        read: async (gtt) => noGtt((await readRocm()) ?? NO_READING, gtt),
      };
    }
    const sysfs = new SysfsReader(deps.files, amdCards, deps.now);
    return {
      name: label,
      tool: rocmOk ? "sysfs+rocm-smi" : "sysfs",
      read: async (gtt) => {
        const own = await sysfs.read(gtt);
        const missing = own.temp_c === null || own.power_w === null || own.vram_gb === null;
        return noGtt(missing ? fill(own, await readRocm()) : own, gtt);
      },
    };
  }
  const intel = cards.filter((c) => c.vendor === "intel");
  if (intel.length === 0) return null;
  const reader = new SysfsReader(deps.files, intel, deps.now);
  return {
    name: gpuLabel(intel.map(sysfsCardName)) ?? "Intel GPU",
    tool: "sysfs",
    read: (gtt) => reader.read(gtt),
  };
}

/** Detects the GPU; null when there is none this tool can read. */
export async function detectGpu(deps: GpuDeps): Promise<GpuSource | null> {
  return (await nvidia(deps)) ?? (await amdOrIntel(deps));
}
