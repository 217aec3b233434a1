/**
 * The firmware of the Marlin simulator (`marlin_sim.ts`): Marlin 2.1's answers to a host, driven
 * by a {@linkcode Clock} that ticks every 100 ms of simulated time (a `ManualClock` in unit tests,
 * a sped-up clock over a pty). It knows nothing of ttys: text in through {@linkcode receive}, lines
 * out through `send`.
 *
 * - Lines are checked as `marlin_lines.ts` says; a refused one answers `Error:…, Last Line: n`,
 *   `Resend: n+1`, `ok` and drops what else was received (Marlin empties its RX buffer).
 * - One command runs at a time (what each does: `marlin_commands.ts`) and each accepted line gets
 *   its `ok` when done. A command that holds the queue (`G28`, `M109` ...) prints
 *   `echo:busy: processing` every 2 s meanwhile.
 * - The emergency parser (`Cap:EMERGENCY_PARSER`) acts on `M108` (end a heat wait) and `M112`
 *   (halt) as they arrive, even while the queue is held.
 * - Faults for tests: refuse the next lines, ask for a resend from a given line, hold the next
 *   command (busy), reset (`start` and the banner again, line number forgotten), halt.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import {
  type Board,
  type Capabilities,
  type Heaters,
  runCommand,
  type Wait,
} from "./marlin_commands.ts";
import {
  type Checked,
  checkLine,
  emergencyCommand,
  FAULT_TEXT,
  type LineFault,
  parseCommand,
} from "./marlin_lines.ts";
import type { Heater } from "./marlin_physics.ts";
import type { SdCard } from "./marlin_sd.ts";

/** Options of a {@linkcode MarlinFirmware}. */
export interface FirmwareOptions {
  clock: Clock;
  heaters: Heaters;
  /** Writes one line (without its end of line) to the host. */
  send(line: string): void;
  /** The SD card; `null` for a board without one (`Cap:SDCARD:0`). */
  sd: SdCard | null;
  capabilities?: Partial<Capabilities>;
  /** Simulated seconds `G28` takes. @default 3 */
  homingSeconds?: number;
  /** Simulated milliseconds from a reset to `start`. @default 1000 */
  bootMs?: number;
}

/** Whether the board answers, is starting up, or has halted (silent until reset). */
export type FirmwareState = "booting" | "running" | "halted";

/** Marlin 2.1.2's side of the serial line. */
export class MarlinFirmware {
  /** Every command accepted, in order (without line number and checksum). */
  readonly commands: string[] = [];
  /** The last 2000 lines each way: `> ` received from the host, `< ` sent to it. */
  readonly transcript: string[] = [];
  #state: FirmwareState = "running";
  #bootAt = 0;
  #rx = "";
  #lines: string[] = [];
  #lastN = 0;
  #wait: Wait | null = null;
  #lastBusy = -Infinity;
  #tempEvery = 0;
  #nextTemp = 0;
  #lastTick: number;
  #hold = 0;
  #fail = { count: 0, fault: "checksum" as LineFault };
  #resendFrom: number | null = null;
  readonly #caps: Capabilities;
  readonly #board: Board;
  readonly #stopTicking: () => void;

  constructor(readonly options: FirmwareOptions) {
    this.#caps = {
      AUTOREPORT_TEMP: true,
      EMERGENCY_PARSER: true,
      AUTOREPORT_SD_STATUS: false,
      ...options.capabilities,
    };
    this.#board = {
      clock: options.clock,
      heaters: options.heaters,
      sd: options.sd,
      caps: this.#caps,
      homingSeconds: options.homingSeconds ?? 3,
      send: (line) => this.#send(line),
      hold: (wait) => this.#wait = wait,
      autoReport: (seconds) => {
        this.#tempEvery = seconds;
        this.#nextTemp = options.clock.now() + seconds * 1000;
      },
      halt: () => this.halt(),
      temperatures: () => this.temperatures(),
    };
    this.#lastTick = options.clock.now();
    this.#stopTicking = options.clock.setInterval(() => this.tick(), 100);
  }

  get state(): FirmwareState {
    return this.#state;
  }

  /** The last accepted line number. */
  get lastLine(): number {
    return this.#lastN;
  }

  /** Takes text from the host (latin1, any chunking). */
  receive(text: string): void {
    if (this.#state === "halted") return;
    for (const ch of text) {
      if (ch !== "\n" && ch !== "\r") {
        this.#rx += ch;
        continue;
      }
      const line = this.#rx;
      this.#rx = "";
      if (line.trim()) this.#arrive(line);
    }
    this.#pump();
  }

  /** Advances the physics and the running command to the clock's time (every 100 ms). */
  tick(): void {
    const now = this.options.clock.now();
    const seconds = (now - this.#lastTick) / 1000;
    this.#lastTick = now;
    const { hotend, bed, chamber } = this.options.heaters;
    for (const heater of [hotend, bed, chamber]) heater?.advance(seconds);
    const sdLines = this.options.sd?.advance(seconds) ?? [];
    if (this.#state === "booting" && now >= this.#bootAt) this.#boot();
    if (this.#state !== "running") return;
    for (const line of sdLines) this.#send(line);
    if (this.#tempEvery > 0 && now >= this.#nextTemp) {
      this.#send(this.temperatures());
      this.#nextTemp = now + this.#tempEvery * 1000;
    }
    const wait = this.#wait;
    if (wait) {
      if (wait.busy && now - this.#lastBusy >= 2000) {
        this.#send("echo:busy: processing");
        this.#lastBusy = now;
      }
      if (wait.step(now)) {
        this.#wait = null;
        wait.finish();
      }
    }
    this.#pump();
  }

  /** ` T:21.00 /0.00 B:… /… C:… /… @:0 B@:0 C@:0`, as `M105` and the auto-report print it. */
  temperatures(): string {
    const { hotend, bed, chamber } = this.options.heaters;
    const pair = (h: Heater) => `${h.reading.toFixed(2)} /${h.target.toFixed(2)}`;
    return ` T:${pair(hotend)} B:${pair(bed)}` + (chamber ? ` C:${pair(chamber)}` : "") +
      ` @:${hotend.power} B@:${bed.power}` + (chamber ? ` C@:${chamber.power}` : "");
  }

  /** The next `count` numbered lines are refused with `fault`, each asking for a resend. */
  failNext(count = 1, fault: LineFault = "checksum"): void {
    this.#fail = { count, fault };
  }

  /** The next numbered line is refused and the resend asked from `line` (earlier lines too). */
  resendFrom(line: number): void {
    this.#resendFrom = line;
  }

  /** The next command first holds the queue `seconds` long, printing `busy` lines. */
  holdNext(seconds: number): void {
    this.#hold = seconds;
  }

  /** Reboots: heaters off, line number forgotten, `start` and the banner after `bootMs`. */
  reset(): void {
    this.#clear();
    this.#state = "booting";
    this.#bootAt = this.options.clock.now() + (this.options.bootMs ?? 1000);
    this.#lastN = 0;
  }

  /** Halts as `kill()` does (`Error:Printer halted. kill() called!`) or with a bare `!!`. */
  halt(style: "kill" | "bang" = "kill", reason?: string): void {
    if (this.#state === "halted") return;
    if (reason) this.#send(`Error:${reason}`);
    this.#send(style === "kill" ? "Error:Printer halted. kill() called!" : "!!");
    this.#clear();
    this.#state = "halted";
  }

  /** Writes any line to the host, as firmware forks do (`wait`, `// action:…`). */
  say(line: string): void {
    this.#note(`< ${line}`);
    this.options.send(line);
  }

  /** Stops ticking. */
  close(): void {
    this.#stopTicking();
  }

  #send(line: string): void {
    if (this.#state === "running") this.say(line);
  }

  #note(line: string): void {
    if (this.transcript.push(line) > 2000) this.transcript.shift();
  }

  #clear(): void {
    this.#rx = "";
    this.#lines = [];
    this.#wait = null;
    this.#tempEvery = 0;
    this.#hold = 0;
    this.#fail = { count: 0, fault: "checksum" };
    this.#resendFrom = null;
    const { hotend, bed, chamber } = this.options.heaters;
    for (const heater of [hotend, bed, chamber]) if (heater) heater.target = 0;
    this.options.sd?.reset();
  }

  #boot(): void {
    this.#state = "running";
    for (const line of BANNER) this.#send(line);
    if (this.options.sd) this.#send("echo:SD card ok");
  }

  #arrive(line: string): void {
    this.#note(`> ${line}`);
    if (this.#state !== "running") return;
    if (this.#caps.EMERGENCY_PARSER) {
      const urgent = emergencyCommand(line);
      if (urgent === "M112") return this.halt();
      if (urgent === "M108" && this.#wait?.heating) this.#wait.step = () => true;
    }
    this.#lines.push(line);
  }

  #pump(): void {
    while (this.#state === "running" && !this.#wait && this.#lines.length > 0) {
      this.#take(this.#lines.shift()!);
    }
  }

  #take(line: string): void {
    let checked: Checked = checkLine(line, this.#lastN);
    if (checked.ok && /^\s*N/.test(line)) {
      if (this.#resendFrom !== null) {
        this.#lastN = this.#resendFrom - 1;
        this.#resendFrom = null;
        checked = { ok: false, fault: "line-number" };
      } else if (this.#fail.count > 0) {
        this.#fail.count--;
        checked = { ok: false, fault: this.#fail.fault };
      }
    }
    if (!checked.ok) {
      this.#send(`Error:${FAULT_TEXT[checked.fault]}${this.#lastN}`);
      this.#send(`Resend: ${this.#lastN + 1}`);
      this.#send("ok");
      this.#lines = [];
      return;
    }
    this.#lastN = checked.lastN;
    const command = checked.command;
    this.commands.push(command);
    if (this.#hold > 0) {
      const until = this.options.clock.now() + this.#hold * 1000;
      this.#hold = 0;
      this.#wait = {
        busy: true,
        heating: false,
        step: (now) => now >= until,
        finish: () => this.#run(command),
      };
      return;
    }
    this.#run(command);
  }

  #run(command: string): void {
    if (runCommand(this.#board, parseCommand(command), command)) this.#send("ok");
  }
}

/** What a board prints after `start`: version, memory and some stored settings. */
const BANNER = [
  "start",
  "echo:Marlin 2.1.2",
  "echo: Last Updated: 2022-12-22 | Author: (localbench, marlin_sim)",
  "echo:Compiled: Mar 20 2023",
  "echo: Free Memory: 4527  PlannerBufferBytes: 1232",
  "echo:V86 stored settings retrieved (649 bytes; crc 29413)",
  "echo:  G21    ; Units in mm (mm)",
  "echo:  M149 C ; Units in Celsius",
  "echo:; Steps per unit:",
  "echo:  M92 X80.00 Y80.00 Z400.00 E93.00",
  "echo:; Hotend PID:",
  "echo:  M301 P22.20 I1.08 D114.00",
];
