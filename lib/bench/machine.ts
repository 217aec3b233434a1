/**
 * The machine a benchmark runs on, captured when it starts: its stable id (machine_id.ts), host
 * name, operating system, CPU model and cores, memory, the GPUs with their driver where the
 * vendor's tool or the kernel says it (`nvidia-smi`; AMD and Intel cards in sysfs, the `amdgpu`
 * module's version), and the model server with its version. Every part that cannot be read is
 * null (or no GPU): capturing never fails a benchmark, except a kept id that is damaged.
 *
 * @module
 */
import { cpus, hostname, release, totalmem } from "node:os";
import { denoRunner, type ProcessRunner } from "../modelserver/mod.ts";
import { denoIdFile, type IdFile, machineId } from "./machine_id.ts";
import { type HostFiles, hostFiles } from "./profiler_host.ts";
import { NVIDIA_SMI_PATHS, runFirst } from "./profiler_smi.ts";
import { findSysfsCards, sysfsCardName } from "./profiler_sysfs.ts";

/** One GPU: its name and driver (null where unknown). */
export interface MachineGpu {
  name: string;
  driver: string | null;
}

/** A machine as a result records it. */
export interface MachineInfo {
  /** Stable id: 16 hex digits (machine_id.ts). */
  id: string;
  hostname: string;
  /** e.g. `Debian GNU/Linux 13 (trixie), Linux 6.12.38`. */
  os: string;
  arch: string;
  cpu_model: string | null;
  /** Logical cores. */
  cpu_cores: number | null;
  /** Total memory, GiB (one decimal). */
  ram_gb: number | null;
  gpus: MachineGpu[];
  /** The model server as the benchmark reached it (`LM Studio at http://…`), or null. */
  model_server: string | null;
  model_server_version: string | null;
}

/** This machine's facts from the operating system (tests give fakes). */
export interface SystemFacts {
  hostname(): string;
  /** `linux`, `darwin`, `windows`. */
  os: string;
  arch: string;
  /** The kernel's release. */
  release(): string;
  cpuModels(): string[];
  totalMemoryBytes(): number;
}

/** The facts of this machine (`node:os`, `--allow-sys`). */
export const platformFacts: SystemFacts = {
  hostname: () => hostname(),
  os: Deno.build.os,
  arch: Deno.build.arch,
  release: () => release(),
  cpuModels: () => cpus().map((c) => c.model),
  totalMemoryBytes: () => totalmem(),
};

/** What {@linkcode captureMachine} reads. */
export interface MachineDeps {
  /** The data folder (where a generated id is kept). */
  dataDir: string;
  files: HostFiles;
  runner: ProcessRunner;
  idFile: IdFile;
  system?: SystemFacts;
}

/** The model server of the run. */
export interface ServerFacts {
  describe: string | null;
  version: string | null;
}

const NVIDIA_IDENTITY = ["--query-gpu=name,driver_version", "--format=csv,noheader"];

/** The GPUs `nvidia-smi` lists: `name, driver` per line. */
export function parseNvidiaIdentity(csv: string): MachineGpu[] {
  return csv.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
    const cut = l.lastIndexOf(",");
    const name = (cut < 0 ? l : l.slice(0, cut)).trim();
    const driver = cut < 0 ? "" : l.slice(cut + 1).trim();
    return { name, driver: driver && !/^\[.*\]$/.test(driver) ? `nvidia ${driver}` : null };
  }).filter((g) => g.name !== "");
}

/** The operating system's name from `/etc/os-release` (`PRETTY_NAME`), or null. */
export function osReleaseName(text: string | null): string | null {
  const line = text?.split("\n").find((l) => l.startsWith("PRETTY_NAME="));
  const value = line?.slice("PRETTY_NAME=".length).trim().replace(/^"(.*)"$/, "$1");
  return value || null;
}

async function quietly<T>(read: () => Promise<T> | T, fallback: T): Promise<T> {
  try {
    return await read();
  } catch {
    return fallback;
  }
}

async function gpus(deps: MachineDeps): Promise<MachineGpu[]> {
  const nvidia = await quietly(
    () => runFirst(deps.runner, NVIDIA_SMI_PATHS, NVIDIA_IDENTITY),
    null,
  );
  const found = nvidia ? parseNvidiaIdentity(nvidia.stdout) : [];
  const cards = await quietly(() => findSysfsCards(deps.files), []);
  const amdVersion = (await quietly(() => deps.files.readText("/sys/module/amdgpu/version"), null))
    ?.trim();
  for (const card of cards) {
    const driver = card.vendor === "amd" ? `amdgpu${amdVersion ? ` ${amdVersion}` : ""}` : null;
    found.push({ name: sysfsCardName(card), driver });
  }
  return found;
}

/** Captures the machine and the model server of a run. */
export async function captureMachine(
  deps: MachineDeps,
  server: ServerFacts = { describe: null, version: null },
): Promise<MachineInfo> {
  const sys = deps.system ?? platformFacts;
  const id = await machineId(deps.dataDir, { files: deps.files, idFile: deps.idFile });
  const kernel = await quietly(() => sys.release(), "");
  const name = sys.os === "linux"
    ? osReleaseName(await quietly(() => deps.files.readText("/etc/os-release"), null))
    : null;
  const system = sys.os === "linux" ? "Linux" : sys.os === "darwin" ? "macOS" : sys.os;
  const models = await quietly(() => sys.cpuModels(), [] as string[]);
  const bytes = await quietly(() => sys.totalMemoryBytes(), 0);
  return {
    id,
    hostname: await quietly(() => sys.hostname(), "") || "unnamed",
    os: [name, `${system}${kernel ? ` ${kernel}` : ""}`].filter(Boolean).join(", "),
    arch: sys.arch,
    cpu_model: models[0]?.trim() || null,
    cpu_cores: models.length || null,
    ram_gb: bytes > 0 ? Math.round(bytes / 1024 ** 3 * 10) / 10 : null,
    gpus: await gpus(deps),
    model_server: server.describe,
    model_server_version: server.version,
  };
}

/** The real sources of this machine, keeping a generated id in `dataDir`. */
export function machineDeps(dataDir: string): MachineDeps {
  return { dataDir, files: hostFiles("/"), runner: denoRunner, idFile: denoIdFile };
}

/** This machine's id alone (no command is run): the key of its cached results. */
export function localMachineId(dataDir: string): Promise<string> {
  const deps = machineDeps(dataDir);
  return machineId(dataDir, { files: deps.files, idFile: deps.idFile });
}

/** The machine in a few words: `host (GPU, CPU)`. */
export function machineSummary(m: Pick<MachineInfo, "hostname" | "gpus" | "cpu_model">): string {
  const parts = [m.gpus.map((g) => g.name).join(" + "), m.cpu_model].filter(Boolean);
  return parts.length ? `${m.hostname} (${parts.join(", ")})` : m.hostname;
}
