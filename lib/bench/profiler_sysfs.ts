/**
 * GPU readings from the kernel's sysfs: `/sys/class/drm/cardN/device` of AMD (`0x1002`: VRAM and
 * GTT in use, hwmon temperature and power) and Intel (`0x8086`: hwmon temperature and power where
 * the driver has them, power from the energy counter otherwise) cards.
 *
 * @module
 */
import type { HostFiles } from "./profiler_host.ts";
import type { GpuReading } from "./profiler_smi.ts";

/** PCI vendor ids. */
export const VENDOR = { amd: "0x1002", intel: "0x8086", nvidia: "0x10de" } as const;

/** A GPU found in sysfs. */
export interface SysfsCard {
  /** e.g. `/sys/class/drm/card1/device` */
  device: string;
  vendor: "amd" | "intel";
  /** PCI device id, e.g. `0x744c`. */
  deviceId: string | null;
  /** The driver's product name where it has one, else null. */
  productName: string | null;
  /** hwmon folder, or null. */
  hwmon: string | null;
}

const DRM = "/sys/class/drm";

async function num(files: HostFiles, path: string): Promise<number | null> {
  const text = await files.readText(path);
  if (text === null) return null;
  const n = Number(text.trim());
  return Number.isFinite(n) ? n : null;
}

/** Lists the AMD and Intel GPUs of `/sys/class/drm` (AMD first). */
export async function findSysfsCards(files: HostFiles): Promise<SysfsCard[]> {
  const cards: SysfsCard[] = [];
  for (const name of await files.list(DRM)) {
    if (!/^card\d+$/.test(name)) continue;
    const device = `${DRM}/${name}/device`;
    const vendorId = (await files.readText(`${device}/vendor`))?.trim().toLowerCase();
    const vendor = vendorId === VENDOR.amd ? "amd" : vendorId === VENDOR.intel ? "intel" : null;
    if (vendor === null) continue;
    // An AMD card the driver manages has the memory counters; a bare PCI entry does not.
    if (vendor === "amd" && (await files.readText(`${device}/mem_info_vram_total`)) === null) {
      continue;
    }
    const hw = (await files.list(`${device}/hwmon`)).find((h) => /^hwmon\d+$/.test(h));
    cards.push({
      device,
      vendor,
      deviceId: (await files.readText(`${device}/device`))?.trim() ?? null,
      productName: (await files.readText(`${device}/product_name`))?.trim() || null,
      hwmon: hw ? `${device}/hwmon/${hw}` : null,
    });
  }
  return cards.sort((a, b) => (a.vendor === b.vendor ? 0 : a.vendor === "amd" ? -1 : 1));
}

/** A display name of a sysfs card. */
export function sysfsCardName(card: SysfsCard): string {
  if (card.productName) return card.productName;
  const vendor = card.vendor === "amd" ? "AMD" : "Intel";
  return `${vendor} GPU${card.deviceId ? ` (device ${card.deviceId})` : ""}`;
}

/** Reads sysfs cards; keeps the energy counters to turn them into power. */
export class SysfsReader {
  #energy = new Map<string, { uj: number; ms: number }>();

  constructor(
    private readonly files: HostFiles,
    private readonly cards: SysfsCard[],
    private readonly now: () => number,
  ) {}

  async #power(card: SysfsCard): Promise<number | null> {
    if (card.hwmon === null) return null;
    const uw = (await num(this.files, `${card.hwmon}/power1_average`)) ??
      (await num(this.files, `${card.hwmon}/power1_input`));
    if (uw !== null) return uw / 1e6;
    const uj = await num(this.files, `${card.hwmon}/energy1_input`);
    if (uj === null) return null;
    const ms = this.now();
    const before = this.#energy.get(card.device);
    this.#energy.set(card.device, { uj, ms });
    if (!before || ms <= before.ms || uj < before.uj) return null;
    return (uj - before.uj) / 1e6 / ((ms - before.ms) / 1000);
  }

  /** One reading: hottest card, summed power and memory; GTT left null when `gtt` is false. */
  async read(gtt: boolean): Promise<GpuReading> {
    const temps: number[] = [];
    const powers: number[] = [];
    let vram: number | null = null;
    let gttBytes: number | null = null;
    for (const card of this.cards) {
      const milli = card.hwmon === null
        ? null
        : (await num(this.files, `${card.hwmon}/temp1_input`)) ??
          (await num(this.files, `${card.hwmon}/temp2_input`));
      if (milli !== null) temps.push(milli / 1000);
      const watts = await this.#power(card);
      if (watts !== null) powers.push(watts);
      if (card.vendor !== "amd") continue;
      const v = await num(this.files, `${card.device}/mem_info_vram_used`);
      if (v !== null) vram = (vram ?? 0) + v;
      if (gtt) {
        const g = await num(this.files, `${card.device}/mem_info_gtt_used`);
        if (g !== null) gttBytes = (gttBytes ?? 0) + g;
      }
    }
    return {
      temp_c: temps.length ? Math.max(...temps) : null,
      power_w: powers.length ? powers.reduce((a, b) => a + b, 0) : null,
      vram_gb: vram === null ? null : vram / 1024 ** 3,
      gtt_gb: gttBytes === null ? null : gttBytes / 1024 ** 3,
    };
  }
}
