/**
 * A Marlin simulator firmware on a `ManualClock`, without a tty, for the firmware's and the
 * commands' tests: send framed lines, move time, take what it answered.
 *
 * @module
 */
import { ManualClock } from "../_fake_clock.ts";
import { type FirmwareOptions, MarlinFirmware } from "./marlin_firmware.ts";
import { BangBang, BED, CHAMBER, Heater, HOTEND, Pid } from "./marlin_physics.ts";
import { SdCard } from "./marlin_sd.ts";

/** The host's framing, written here so a bug in marlin_lines.ts is not mirrored. */
export function framed(n: number, command: string): string {
  const text = `N${n} ${command}`;
  return `${text}*${[...text].reduce((cs, c) => cs ^ c.charCodeAt(0), 0)}\n`;
}

/** A firmware under test. */
export interface Board {
  fw: MarlinFirmware;
  clock: ManualClock;
  heaters: FirmwareOptions["heaters"];
  /** The lines sent since the last call. */
  take(): string[];
  /** Sends framed lines numbered from `first`. */
  send(first: number, ...commands: string[]): void;
}

/** A firmware with a hot end, a bed, a chamber and an SD card holding `CUBE.GCO` (600 bytes). */
export function board(options: Partial<FirmwareOptions> = {}): Board {
  const clock = new ManualClock(0);
  const out: string[] = [];
  const heaters = {
    hotend: new Heater(HOTEND, new Pid(), 20, 1),
    bed: new Heater(BED, new BangBang(), 20, 2),
    chamber: new Heater(CHAMBER, new BangBang(), 20, 3),
  };
  const fw = new MarlinFirmware({
    clock,
    heaters,
    send: (line) => out.push(line),
    sd: new SdCard({ "CUBE.GCO": "G1 X1\n".repeat(100) }, 100),
    ...options,
  });
  return {
    fw,
    clock,
    heaters: options.heaters ?? heaters,
    take: () => out.splice(0),
    send: (first, ...commands) => fw.receive(commands.map((c, i) => framed(first + i, c)).join("")),
  };
}

/** An auto-report line. */
export const TEMPS =
  /^ T:\d+\.\d\d \/\d+\.\d\d B:\d+\.\d\d \/\d+\.\d\d C:\d+\.\d\d \/\d+\.\d\d @:\d+ B@:\d+ C@:\d+$/;
