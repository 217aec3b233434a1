/**
 * GPU readings from the vendors' monitor commands: `nvidia-smi` (every GPU, one CSV line each) and
 * `rocm-smi --json` (every card). With several GPUs, memory and power are summed and the hottest
 * temperature is kept (the reference reads the first GPU only).
 *
 * @module
 */
import { SetupError } from "../error.ts";
import type { ProcessRunner } from "../modelserver/mod.ts";

/** One reading of the GPU(s); null where the source has no value. */
export interface GpuReading {
  temp_c: number | null;
  power_w: number | null;
  /** GiB. */
  vram_gb: number | null;
  /** GiB of system memory mapped for the GPU (AMD GTT). */
  gtt_gb: number | null;
}

/** An empty reading. */
export const NO_READING: GpuReading = { temp_c: null, power_w: null, vram_gb: null, gtt_gb: null };

/** Timeout of one monitor command. */
export const SMI_TIMEOUT_MS = 5000;

/** Where `nvidia-smi` is looked for after `PATH` (as the reference does). */
export const NVIDIA_SMI_PATHS = [
  "nvidia-smi",
  "/usr/bin/nvidia-smi",
  "/usr/local/bin/nvidia-smi",
  "/usr/local/cuda/bin/nvidia-smi",
];

/** Where `rocm-smi` is looked for. */
export const ROCM_SMI_PATHS = ["rocm-smi", "/opt/rocm/bin/rocm-smi"];

/** The `nvidia-smi` query of the profiler. */
export const NVIDIA_QUERY = [
  "--query-gpu=name,temperature.gpu,power.draw,memory.used",
  "--format=csv,noheader,nounits",
];

/** The `rocm-smi` query of the profiler. */
export const ROCM_QUERY = ["--showtemp", "--showpower", "--showmeminfo", "vram", "gtt", "--json"];

const GIB = 1024 ** 3;

/** A number, or null for `[N/A]`, `[Not Supported]` and other non-numbers. */
export function numberOrNull(text: unknown): number | null {
  if (typeof text === "number") return Number.isFinite(text) ? text : null;
  if (typeof text !== "string") return null;
  const n = Number.parseFloat(text.trim());
  return Number.isFinite(n) ? n : null;
}

const sum = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? v.reduce((a, b) => a + b, 0) : null;
};
const max = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? Math.max(...v) : null;
};

/** Parses the CSV of {@linkcode NVIDIA_QUERY}: the GPU names and the combined reading. */
export function parseNvidiaSmi(csv: string): { names: string[]; reading: GpuReading } | null {
  const rows = csv.split("\n").map((l) => l.trim()).filter(Boolean).map((l) =>
    l.split(",").map((c) => c.trim())
  ).filter((r) => r.length >= 4);
  if (rows.length === 0) return null;
  return {
    names: rows.map((r) => r[0]!),
    reading: {
      temp_c: max(rows.map((r) => numberOrNull(r[1]))),
      power_w: sum(rows.map((r) => numberOrNull(r[2]))),
      vram_gb: (() => {
        const mib = sum(rows.map((r) => numberOrNull(r[3])));
        return mib === null ? null : mib / 1024;
      })(),
      gtt_gb: null,
    },
  };
}

/** Parses `rocm-smi ... --json` (every `cardN` object) into the combined reading. */
export function parseRocmSmi(json: string): GpuReading | null {
  let data: unknown;
  try {
    data = JSON.parse(json.slice(json.indexOf("{")));
  } catch {
    return null;
  }
  if (!data || typeof data !== "object") return null;
  const cards = Object.entries(data as Record<string, unknown>)
    .filter(([k, v]) => /^card\d+$/.test(k) && v && typeof v === "object")
    .map(([, v]) => v as Record<string, unknown>);
  if (cards.length === 0) return null;
  const field = (card: Record<string, unknown>, re: RegExp) => {
    const key = Object.keys(card).find((k) => re.test(k));
    return key === undefined ? null : numberOrNull(card[key]);
  };
  const bytes = (card: Record<string, unknown>, what: "VRAM" | "GTT") =>
    field(card, new RegExp(`^${what} Total Used Memory \\(B\\)$`, "i"));
  return {
    temp_c: max(
      cards.map((c) => field(c, /^Temperature \(Sensor edge\)/i) ?? field(c, /^Temperature/i)),
    ),
    power_w: sum(
      cards.map((c) => field(c, /Graphics Package Power \(W\)/i) ?? field(c, /Power \(W\)/i)),
    ),
    vram_gb: (() => {
      const b = sum(cards.map((c) => bytes(c, "VRAM")));
      return b === null ? null : b / GIB;
    })(),
    gtt_gb: (() => {
      const b = sum(cards.map((c) => bytes(c, "GTT")));
      return b === null ? null : b / GIB;
    })(),
  };
}

/** Parses `rocm-smi --showproductname --json`: the card series names. */
export function parseRocmProductNames(json: string): string[] {
  try {
    const data = JSON.parse(json.slice(json.indexOf("{"))) as Record<
      string,
      Record<string, string>
    >;
    return Object.entries(data).filter(([k]) => /^card\d+$/.test(k)).map(([, v]) =>
      v["Card Series"] ?? v["Card series"] ?? v["Card Model"] ?? ""
    ).filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Runs the first of `paths` that starts and exits 0; returns its path and output, or null when
 * none does (the command is not installed or fails); throws a `SetupError` when this program may
 * not run commands.
 */
export async function runFirst(
  runner: ProcessRunner,
  paths: readonly string[],
  args: string[],
): Promise<{ cmd: string; stdout: string } | null> {
  for (const cmd of paths) {
    try {
      const res = await runner.run(cmd, args, { timeoutMs: SMI_TIMEOUT_MS });
      if (res.code === 0 && !res.timedOut) return { cmd, stdout: res.stdout };
    } catch (err) {
      // Not installed here: try the next place. Not allowed to run it: say so.
      if (err instanceof Deno.errors.NotCapable) {
        throw new SetupError(`${cmd} may not run: this program needs --allow-run`, {
          code: "not_capable",
        });
      }
    }
  }
  return null;
}

/** A name of several GPUs: `NVIDIA RTX 4090` or `2 × NVIDIA RTX 4090`. */
export function gpuLabel(names: string[]): string | null {
  const unique = [...new Set(names)];
  if (unique.length === 0) return null;
  if (unique.length === 1) return names.length > 1 ? `${names.length} × ${unique[0]}` : unique[0]!;
  return unique.join(" + ");
}
