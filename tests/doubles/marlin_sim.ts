/**
 * A Marlin 2.1 printer on a real pseudo-terminal, for tests and demos: a host opens
 * {@linkcode MarlinSim.path} as it would open `/dev/ttyACM0` and speaks Marlin's serial protocol;
 * the heaters follow physics on a clock `speed` times faster than real time.
 *
 * ```ts ignore
 * const sim = await startMarlinSim({ speed: 50 });
 * // Raw mode is set. Two handles: on one Deno FsFile a pending read blocks a write.
 * const input = await Deno.open(sim.path, { read: true });
 * const output = await Deno.open(sim.path, { write: true });
 * // … `start`, the banner, then `N0 M110 N0*125` → `ok` …
 * sim.controls.failNext(1); // the next numbered line is refused: Error:checksum mismatch …
 * await sim.close();
 * ```
 *
 * Standalone, until Ctrl-C or `--seconds` (default 600):
 * `deno run --allow-run=python3 --allow-read --allow-write=/tmp tests/doubles/marlin_sim.ts
 * --print-path [--speed 1] [--baud 250000] [--seconds 600]` prints the tty's path, then e.g.
 * `picocom -b 250000 PATH` talks to it.
 *
 * Parts: `marlin_pty.ts` (+ `.py`, the tty), `marlin_firmware.ts` (the serial queue, waits and
 * faults), `marlin_commands.ts` (each G/M-code), `marlin_lines.ts` (line numbers and checksums),
 * `marlin_physics.ts` (heaters), `marlin_sd.ts` (SD card), `marlin_clock.ts` (time). It imports nothing of `lib/printer/`: it is
 * the host's independent peer.
 *
 * A host on Deno's file API, beware (seen here): on one `Deno.FsFile` a pending read blocks a
 * write, so open the tty twice; and a read Deno has started on a tty is not interrupted by
 * `cancel()` or `close()`: it stays blocked and takes the next bytes that arrive, so a handle
 * opened after it misses them (a reconnect can lose the board's `start`).
 *
 * Wrong baud rate: the board runs at `baudRate`; the host's rate is `hostBaudRate` when given, else
 * the speed the host set on the tty (read from its termios, so a host that never sets one counts as
 * matching). When they differ, every byte the board sends is garbage and nothing the host sends
 * is understood, as on a real line.
 *
 * @module
 */
import { parseOptions } from "../../lib/args.ts";
import { print } from "../../lib/log.ts";
import type { Capabilities, Heaters } from "./marlin_commands.ts";
import { MarlinFirmware } from "./marlin_firmware.ts";
import { scaledClock, type SimClock } from "./marlin_clock.ts";
import type { LineFault } from "./marlin_lines.ts";
import {
  BangBang,
  BED,
  CHAMBER,
  Heater,
  HOTEND,
  Pid,
  seededRandom,
  type ThermalBody,
} from "./marlin_physics.ts";
import { openPty, type PtyPort } from "./marlin_pty.ts";
import { SdCard, type SdFiles } from "./marlin_sd.ts";

/** Options of {@linkcode startMarlinSim}. */
export interface MarlinSimOptions {
  /** Simulated seconds per real second. @default 1 */
  speed?: number;
  /** A clock to run on instead (a test that moves time by hand). */
  clock?: SimClock;
  /** The board's baud rate. @default 250000 */
  baudRate?: number;
  /** The host's baud rate, when a test says it; else read from the tty. */
  hostBaudRate?: number;
  /**
   * Opening the tty resets the board (DTR), as most boards do: when the first handle opens after
   * none was open (seen every 10 ms: a close and reopen quicker than that is missed). @default true
   */
  resetOnOpen?: boolean;
  /** Simulated milliseconds from reset to `start`. @default 1000 */
  bootMs?: number;
  /** Ambient temperature in °C. @default 20 */
  ambient?: number;
  /** Seed of the thermistor noise and the garbage bytes. @default 1 */
  seed?: number;
  /** Changes to the hot end (`{ power: 10 }`: too weak for 200 °C, it settles short). */
  hotend?: Partial<ThermalBody>;
  /** Changes to the bed. */
  bed?: Partial<ThermalBody>;
  /** The bed's bang-bang hysteresis (`BED_LIMIT_SWITCHING`). @default 0 */
  bedHysteresis?: number;
  /** Changes to the chamber, or `false` for a printer without one. */
  chamber?: Partial<ThermalBody> | false;
  capabilities?: Partial<Capabilities>;
  /** Files on the SD card, or `null` for a board without a card. @default a 200-line `CUBE.GCO` */
  sdFiles?: SdFiles | null;
  /** SD printing speed in bytes per simulated second. @default 100 */
  sdBytesPerSecond?: number;
  /** Simulated seconds of `G28`. @default 3 */
  homingSeconds?: number;
  /** The simulator closes itself after this many real seconds. @default 600 */
  maxSeconds?: number;
}

/** What a test can read and do while the simulator runs. */
export interface MarlinControls {
  readonly firmware: MarlinFirmware;
  readonly heaters: Heaters;
  /** A host holds the tty open. */
  readonly connected: boolean;
  /** How many times a host opened the tty (each one reset the board, unless `resetOnOpen` is off). */
  readonly opens: number;
  /** The rate the host is taken to use (given, or read from the tty). */
  readonly hostBaudRate: number | null;
  /** Jumps simulated time ahead (physics, waits, reports). */
  advance(seconds: number): void;
  /** Refuses the next `count` numbered lines (`checksum`, `line-number`, `no-checksum`). */
  failNext(count?: number, fault?: LineFault): void;
  /** Refuses the next numbered line and asks for a resend from `line`. */
  resendFrom(line: number): void;
  /** Holds the next command `seconds` long, answering `echo:busy: processing`. */
  busy(seconds: number): void;
  /** Resets the board now (`start`, banner, line number 0, heaters off). */
  reset(): void;
  /** Halts: `Error:Printer halted. kill() called!` (or `!!`), then silence until a reset. */
  halt(style?: "kill" | "bang", reason?: string): void;
  /** Sends any line to the host. */
  say(line: string): void;
  /** Sets (or, with `null`, stops setting) the baud rate the host is taken to use. */
  setHostBaudRate(baudRate: number | null): void;
  /** Removes the tty as a USB unplug does: the host's reads fail, opening the path fails. */
  unplug(): Promise<void>;
  /** Brings the tty back at the same path. */
  replug(): Promise<void>;
}

/** A running simulator. */
export interface MarlinSim {
  /** The tty to open (a symlink to `/dev/pts/N`, stable across unplug and replug). */
  readonly path: string;
  readonly controls: MarlinControls;
  /** Stops everything and removes the tty and its folder; safe to call twice. */
  close(): Promise<void>;
  /** Settles once closed (by {@linkcode close} or after `maxSeconds`). */
  readonly closed: Promise<void>;
}

const DEMO_FILE = Array.from({ length: 200 }, (_, i) => `G1 X${i % 50} Y${i % 40} E${i}\n`).join(
  "",
);

/** Starts a simulator on a new pseudo-terminal. */
export async function startMarlinSim(options: MarlinSimOptions = {}): Promise<MarlinSim> {
  const clock = options.clock ?? scaledClock(options.speed ?? 1);
  const baudRate = options.baudRate ?? 250000;
  const ambient = options.ambient ?? 20;
  const seed = options.seed ?? 1;
  const maxSeconds = options.maxSeconds ?? 600;
  const heaters: Heaters = {
    hotend: new Heater({ ...HOTEND, ...options.hotend }, new Pid(), ambient, seed),
    bed: new Heater(
      { ...BED, ...options.bed },
      new BangBang(5, options.bedHysteresis ?? 0),
      ambient,
      seed + 1,
    ),
    chamber: options.chamber === false
      ? null
      : new Heater({ ...CHAMBER, ...options.chamber }, new BangBang(5), ambient, seed + 2),
  };
  const sdFiles = options.sdFiles === undefined ? { "CUBE.GCO": DEMO_FILE } : options.sdFiles;
  const garbage = seededRandom(seed + 3);
  let pty: PtyPort | null = null;
  let connected = false;
  let opens = 0;
  let ttyBaud: number | null = null;
  let givenBaud = options.hostBaudRate ?? null;
  const hostBaud = () => givenBaud ?? ttyBaud;
  const mismatched = () => (hostBaud() ?? baudRate) !== baudRate;
  const firmware = new MarlinFirmware({
    clock,
    heaters,
    sd: sdFiles ? new SdCard(sdFiles, options.sdBytesPerSecond) : null,
    capabilities: options.capabilities,
    homingSeconds: options.homingSeconds,
    bootMs: options.bootMs,
    send(line) {
      const bytes = latin1(`${line}\n`);
      if (mismatched()) {
        for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(garbage() * 256);
      }
      pty?.write(bytes);
    },
  });
  const dir = await Deno.makeTempDir({ prefix: "marlinsim-" });
  const path = `${dir}/ttyACM0`;
  const plug = async () => {
    const port = await openPty({
      link: path,
      baudRate,
      maxSeconds: maxSeconds + 5,
      onData(bytes) {
        if (!mismatched()) firmware.receive(String.fromCharCode(...bytes));
      },
      onOpen(open) {
        connected = open;
        if (open) opens++;
        if (open && options.resetOnOpen !== false) firmware.reset();
      },
      onBaud(rate) {
        ttyBaud = rate;
      },
    });
    pty = port;
    port.closed.then(() => {
      if (pty !== port) return;
      pty = null; // the helper ended by itself (its time bound, or killed): as unplugged
      connected = false;
    });
  };
  const unplug = async () => {
    const port = pty;
    pty = null;
    connected = false;
    await port?.close();
  };
  try {
    await plug();
  } catch (err) {
    firmware.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw err;
  }

  let done: () => void = () => {};
  const closed = new Promise<void>((resolve) => done = resolve);
  let closing: Promise<void> | null = null;
  const close = () =>
    closing ??= (async () => {
      clearTimeout(lifetime);
      firmware.close();
      await unplug();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      done();
    })();
  const lifetime = setTimeout(close, maxSeconds * 1000);

  const controls: MarlinControls = {
    firmware,
    heaters,
    get connected() {
      return connected;
    },
    get opens() {
      return opens;
    },
    get hostBaudRate() {
      return hostBaud();
    },
    advance: (seconds) => clock.advance(seconds * 1000),
    failNext: (count, fault) => firmware.failNext(count, fault),
    resendFrom: (line) => firmware.resendFrom(line),
    busy: (seconds) => firmware.holdNext(seconds),
    reset: () => firmware.reset(),
    halt: (style, reason) => firmware.halt(style, reason),
    say: (line) => firmware.say(line),
    setHostBaudRate(rate) {
      givenBaud = rate;
    },
    unplug,
    async replug() {
      if (!pty && !closing) await plug();
    },
  };
  return { path, controls, close, closed };
}

function latin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseOptions({
    args: argv,
    options: {
      "print-path": { type: "boolean", default: false },
      speed: { type: "string", default: "1" },
      baud: { type: "string", default: "250000" },
      seconds: { type: "string", default: "600" },
    },
  });
  const sim = await startMarlinSim({
    speed: Number(values.speed) || 1,
    baudRate: Number(values.baud) || 250000,
    maxSeconds: Number(values.seconds) || 600,
  });
  if (values["print-path"]) print(sim.path);
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, sim.close);
  await sim.closed;
}

if (import.meta.main) await main(Deno.args);
