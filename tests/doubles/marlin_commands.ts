/**
 * What each G- and M-code does in the Marlin simulator's firmware (`marlin_firmware.ts` runs them
 * one at a time and sends their `ok`), with Marlin 2.1's wording:
 *
 * - `M104`/`M140`/`M141` set a target; `M109`/`M190`/`M191` set it and hold the queue (`S` only
 *   while heating, `R` cooling too), printing the temperatures with ` W:` every second until the
 *   reading stayed within 1 °C (`TEMP_WINDOW`) / 3 °C (`TEMP_HYSTERESIS`) for 10 s
 *   (`TEMP_RESIDENCY_TIME`); `M108` ends the wait.
 * - `M105` answers `ok T:… /… B:… /… C:… /… @:… B@:… C@:…`; `M155 S<n>` auto-reports (with
 *   `Cap:AUTOREPORT_TEMP`); `M115` names the firmware and lists `Cap:` lines.
 * - `G28` and `G4` hold the queue (busy); moves and settings are taken as they are; SD commands go
 *   to `marlin_sd.ts`; anything else is `echo:Unknown command: "…"`.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import type { ParsedCommand } from "./marlin_lines.ts";
import type { Heater } from "./marlin_physics.ts";
import type { SdCard } from "./marlin_sd.ts";

/** The heaters a firmware drives; a printer without a chamber answers `M141` as unknown. */
export interface Heaters {
  hotend: Heater;
  bed: Heater;
  chamber: Heater | null;
}

/** Capabilities a test can switch (reported by `M115` as `Cap:NAME:0|1`, and obeyed). */
export interface Capabilities {
  /** `M155 S<n>` auto-reports temperatures; off, `M155` is an unknown command. @default true */
  AUTOREPORT_TEMP: boolean;
  /** `M108`/`M112`/`M410` act on arrival. @default true */
  EMERGENCY_PARSER: boolean;
  /** `M27 S<n>` auto-reports SD progress. @default false (as Marlin's default build) */
  AUTOREPORT_SD_STATUS: boolean;
}

/** A command holding the queue. */
export interface Wait {
  /** Prints `echo:busy: processing` every 2 s. */
  busy: boolean;
  /** A heat wait, which `M108` ends. */
  heating: boolean;
  /** Called every tick; true when done. */
  step(now: number): boolean;
  /** Runs when done: the command's `ok`, or the held command. */
  finish(): void;
}

/** What a command may use of the board. */
export interface Board {
  readonly clock: Clock;
  readonly heaters: Heaters;
  readonly sd: SdCard | null;
  readonly caps: Capabilities;
  readonly homingSeconds: number;
  send(line: string): void;
  /** Holds the queue until `wait` is done. */
  hold(wait: Wait): void;
  /** Auto-reports the temperatures every `seconds` (0: off). */
  autoReport(seconds: number): void;
  halt(): void;
  /** ` T:21.00 /0.00 B:…`, as `M105` and the auto-report print it. */
  temperatures(): string;
}

/** G- and M-codes taken without a word (moves, modes, fans, messages ...). */
const ACCEPTED = new Set(
  ("G0 G1 G2 G3 G20 G21 G90 G91 G92 M17 M18 M73 M75 M76 M77 M82 M83 M84 M106 M107 M108 M110 " +
    "M117 M220 M221 M400 M410 T0").split(" "),
);

/** Runs one command; false when it answers `ok` itself (later, or as `ok T:…`). */
export function runCommand(board: Board, parsed: ParsedCommand, command: string): boolean {
  const { code, params } = parsed;
  const { hotend, bed, chamber } = board.heaters;
  const number = (key: string) => params.has(key) ? Number(params.get(key)) || 0 : null;
  if (ACCEPTED.has(code)) return true;
  switch (code) {
    case "G4":
      return pause(board, (number("S") ?? 0) * 1000 + (number("P") ?? 0));
    case "G28":
      return pause(board, board.homingSeconds * 1000);
    case "M104":
    case "M109":
      return setTarget(board, hotend, code === "M109", number("S"), number("R"));
    case "M140":
    case "M190":
      return setTarget(board, bed, code === "M190", number("S"), number("R"));
    case "M141":
    case "M191":
      if (!chamber) break;
      return setTarget(board, chamber, code === "M191", number("S"), number("R"));
    case "M105":
      board.send(`ok${board.temperatures()}`);
      return false;
    case "M155":
      if (!board.caps.AUTOREPORT_TEMP) break;
      board.autoReport(number("S") ?? 0);
      return true;
    case "M115":
      for (const line of m115(board)) board.send(line);
      return true;
    case "M112":
      board.halt();
      return false;
  }
  if (board.sd) {
    if (code === "M27" && !board.caps.AUTOREPORT_SD_STATUS) params.delete("S");
    const lines = board.sd.handle(parsed);
    if (lines) {
      for (const line of lines) board.send(line);
      return true;
    }
  }
  board.send(`echo:Unknown command: "${command}"`);
  return true;
}

function pause(board: Board, ms: number): boolean {
  const until = board.clock.now() + ms;
  board.hold({
    busy: true,
    heating: false,
    step: (now) => now >= until,
    finish: () => board.send("ok"),
  });
  return false;
}

/** `M104`-style: set; `M109`-style: set and wait (`S` heating only, `R` either way). */
function setTarget(
  board: Board,
  heater: Heater,
  wait: boolean,
  s: number | null,
  r: number | null,
): boolean {
  const target = r ?? s;
  if (target !== null) heater.target = Math.max(0, target);
  if (!wait || (r === null && heater.reading > heater.target)) return true;
  let since: number | null = null;
  let first = true;
  let nextLine = 0;
  board.hold({
    busy: true,
    heating: true,
    step: (now) => {
      if (now >= nextLine) {
        const left = since === null
          ? "?"
          : Math.max(0, Math.floor((10_000 - (now - since)) / 1000));
        board.send(`${board.temperatures()} W:${left}`);
        nextLine = now + 1000;
      }
      const off = Math.abs(heater.target - heater.reading);
      if (since === null && off < 1) since = first ? now - 10_000 : now;
      else if (since !== null && off > 3) since = now;
      first = false;
      return since !== null && now - since >= 10_000;
    },
    finish: () => board.send("ok"),
  });
  return false;
}

function m115(board: Board): string[] {
  const sd = board.sd !== null;
  const caps: [string, boolean][] = [
    ["SERIAL_XON_XOFF", false],
    ["BINARY_FILE_TRANSFER", false],
    ["EEPROM", true],
    ["VOLUMETRIC", true],
    ["AUTOREPORT_POS", false],
    ["AUTOREPORT_TEMP", board.caps.AUTOREPORT_TEMP],
    ["PROGRESS", false],
    ["PRINT_JOB", true],
    ["AUTOLEVEL", false],
    ["EMERGENCY_PARSER", board.caps.EMERGENCY_PARSER],
    ["PROMPT_SUPPORT", false],
    ["SDCARD", sd],
    ["AUTOREPORT_SD_STATUS", sd && board.caps.AUTOREPORT_SD_STATUS],
    ["LONG_FILENAME", false],
    ["THERMAL_PROTECTION", true],
    ["ARCS", true],
    ["CHAMBER_TEMPERATURE", board.heaters.chamber !== null],
  ];
  return [
    "FIRMWARE_NAME:Marlin 2.1.2 (Mar 20 2023 12:00:00) " +
    "SOURCE_CODE_URL:github.com/MarlinFirmware/Marlin PROTOCOL_VERSION:1.0 " +
    "MACHINE_TYPE:localbench sim EXTRUDER_COUNT:1 UUID:cede2a2f-41a2-4748-9b12-c55c62f367ff",
    ...caps.map(([name, on]) => `Cap:${name}:${on ? 1 : 0}`),
  ];
}
