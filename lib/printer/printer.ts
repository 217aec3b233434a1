/**
 * The printer as the host drives it, whatever is behind it: Marlin over a serial line, or the
 * built-in virtual printer (the port `VIRTUAL`); in the host's process, or in the printer process
 * that the host's restarts do not touch (through its socket). Plugins see the read side,
 * {@linkcode PrinterAccess}.
 *
 * @module
 */

/** Heater names of the printer: `tool0`..`toolN`, `bed`, `chamber`. */
export type HeaterName = string;

/** One heater reading. */
export interface HeaterReading {
  actual: number;
  /** Target in °C; 0 or null when the heater is off. */
  target: number | null;
}

/**
 * Where the printer stands, print-host style. `OFFLINE`: no connection (after an error too: the
 * connection's `error` says why); `CONNECTING`: the port is opening or the firmware is answering
 * the handshake; `ERROR`: connected, but the firmware halted or stopped answering.
 */
export type PrinterState =
  | "OFFLINE"
  | "CONNECTING"
  | "OPERATIONAL"
  | "PRINTING"
  | "PAUSING"
  | "PAUSED"
  | "RESUMING"
  | "CANCELLING"
  | "FINISHING"
  | "ERROR";

/** A snapshot of the printer. */
export interface PrinterSnapshot {
  state: PrinterState;
  /** Heater name → reading (the heaters the printer reported; none while offline). */
  temperatures: Record<HeaterName, HeaterReading>;
  /** Time of the snapshot in ms since the epoch (printer clock). */
  time: number;
}

/** One sample of the temperature history. */
export interface TemperatureSample {
  /** ms since the epoch. */
  time: number;
  temperatures: Record<HeaterName, HeaterReading>;
}

/** The connection to the printer, as `GET /api/connection` shows it. */
export interface ConnectionStatus {
  state: PrinterState;
  /** The port connected or being connected (`/dev/ttyUSB0`, `VIRTUAL`); null when offline. */
  port: string | null;
  baudrate: number | null;
  /**
   * Why the last connection failed or ended (stays while offline: OctoPrint's "Offline after
   * error"); null when nothing went wrong.
   */
  error: string | null;
  /** What the firmware said of itself (`M115`); null before the handshake. */
  firmware: { name: string | null; capabilities: Record<string, boolean> } | null;
}

/** A file being printed, and how far. */
export interface JobStatus {
  state: PrinterState;
  /** The file selected or printing; null when none. */
  file: { name: string; size: number; origin: "local" | "sdcard" } | null;
  progress: {
    /** Percent of the file's bytes done. */
    completion: number | null;
    /** Bytes of the file done. */
    filepos: number | null;
    /** Lines of the file sent. */
    lines: number | null;
    /** Seconds printing so far (pauses excluded). */
    printTime: number | null;
    /** Estimated seconds left. */
    printTimeLeft: number | null;
  };
}

/** One line of the terminal view: sent to or received from the printer, or said by the host. */
export interface TerminalLine {
  time: number;
  direction: "sent" | "received" | "info";
  text: string;
}

/** Events the printer emits. */
export type PrinterEvent =
  | { type: "state"; state: PrinterState; previous: PrinterState }
  | { type: "temperatures"; snapshot: PrinterSnapshot }
  | { type: "connection"; status: ConnectionStatus }
  | { type: "job"; job: JobStatus }
  | { type: "terminal"; line: TerminalLine };

/** Read access to the host's printer: what plugins see. */
export interface PrinterAccess {
  snapshot(): PrinterSnapshot;
  /** Subscribes to printer events; returns the unsubscribe function. */
  subscribe(listener: (event: PrinterEvent) => void): () => void;
  /** The recent temperature samples, oldest first (they outlive restarts of the host). */
  history(): TemperatureSample[];
}

/** How to connect. */
export interface ConnectOptions {
  /** A serial port path (`/dev/ttyUSB0`, `/dev/serial/by-id/…`, a pseudo-terminal) or `VIRTUAL`. */
  port: string;
  baudrate: number;
}

/** The port of the built-in virtual printer. */
export const VIRTUAL_PORT = "VIRTUAL";

/** The printer the host drives: connection, targets, commands, the job, the terminal. */
export interface Printer extends PrinterAccess {
  connection(): ConnectionStatus;
  /** The ports one may connect to now (serial ports found, configured extra ports, `VIRTUAL`). */
  ports(): Promise<string[]>;
  /** Connects (disconnecting first); resolves once the firmware answered the handshake. */
  connect(options: ConnectOptions): Promise<void>;
  disconnect(): Promise<void>;
  /** Pretends an `ok` arrived (unsticks a printer that lost one). */
  fakeAck(): Promise<void>;
  /** Sets heater targets (°C; 0 turns a heater off). */
  setTargets(targets: Record<HeaterName, number>): Promise<void>;
  /** Sends commands as a user typed them (the terminal); resolves when each was acknowledged. */
  commands(lines: string[]): Promise<void>;
  job(): JobStatus;
  /**
   * Selects a file of the uploads folder by name (null: none) for the next print, without
   * printing it. Throws a `ConflictError` while a print is under way.
   */
  selectJob(name: string | null): Promise<void>;
  /** Starts printing a file of the uploads folder by name. */
  startJob(name: string): Promise<void>;
  pauseJob(): Promise<void>;
  resumeJob(): Promise<void>;
  cancelJob(): Promise<void>;
  /** Prints the paused job again from the beginning of its file. */
  restartJob(): Promise<void>;
  /** The recent terminal lines, oldest first. */
  terminal(): TerminalLine[];
}
