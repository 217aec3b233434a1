/**
 * The printer service: the one connection to the printer — a Marlin printer on a serial port or
 * the virtual printer (`VIRTUAL`) — with its state (OctoPrint's connection states), the heaters'
 * readings and targets, the temperature history, the terminal's recent lines and the job. The
 * host reaches it in its own process (`deno task webapp`) or in the printer process that the
 * host's restarts do not touch (`deno task host`, through `./remote/`).
 *
 * @module
 */
import { type Clock, systemClock } from "../clock.ts";
import { ConflictError, messageOf, UsageError } from "../error.ts";
import { Heaters } from "./heaters.ts";
import type { DriverEvent, DriverState, PrinterDriver } from "./driver.ts";
import { MarlinSession, type MarlinSessionOptions, targetCommand } from "./marlin/mod.ts";
import {
  type ConnectionStatus,
  type ConnectOptions,
  type JobStatus,
  type Printer,
  type PrinterEvent,
  type PrinterSnapshot,
  type PrinterState,
  type TemperatureSample,
  type TerminalLine,
  VIRTUAL_PORT,
} from "./printer.ts";
import type { JobRunner, JobScripts } from "./job/mod.ts";
import { PrinterJobs } from "./jobs.ts";
import { Recent } from "./recent.ts";
import { BAUD_RATES } from "./serial/mod.ts";
import type { OpenTransport } from "./transport.ts";
import { VirtualDriver } from "./virtual/virtual_driver.ts";

/** Options of {@linkcode PrinterService}. */
export interface PrinterServiceOptions {
  /** Opens a serial port (`lib/printer/serial/` `openSerialTransport`; tests pass others). */
  openTransport: OpenTransport;
  /** The serial ports present (without `VIRTUAL`). */
  listPorts(): Promise<string[]>;
  clock?: Clock;
  /** Simulated seconds per real second of the virtual printer. @default 1 */
  virtualSpeed?: number;
  /** Options of every Marlin session (timeouts, lines in flight). */
  session?: Omit<MarlinSessionOptions, "clock">;
  /** Temperature samples kept. @default 1800 */
  historySamples?: number;
  /** Oldest temperature sample kept, ms. @default 30 minutes */
  historyMaxAgeMs?: number;
  /** Terminal lines kept. @default 300 */
  terminalLines?: number;
  /** The folder of the uploaded files `startJob` prints. */
  uploadsDir?: string;
  /** The job's scripts (cancel: heaters, fan and motors off). @default DEFAULT_JOB_SCRIPTS */
  jobScripts?: Partial<JobScripts>;
}

const OFFLINE: ConnectionStatus = {
  state: "OFFLINE",
  port: null,
  baudrate: null,
  error: null,
  firmware: null,
};

/** The printer as the host drives it. */
export class PrinterService implements Printer {
  readonly #options: PrinterServiceOptions;
  readonly #clock: Clock;
  readonly #listeners = new Set<(event: PrinterEvent) => void>();
  readonly #heaters: Heaters;
  readonly #terminal: Recent<TerminalLine>;
  #status: ConnectionStatus = OFFLINE;
  #driver: PrinterDriver | null = null;
  /** The selected file, the connection's job runner and SD card watch, a print cut short. */
  readonly #jobs: PrinterJobs;
  #unsubscribe: (() => void)[] = [];
  /** Counts connections: events of a replaced driver are ignored. */
  #generation = 0;

  constructor(options: PrinterServiceOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#heaters = new Heaters({
      now: this.#clock.now(),
      historySamples: options.historySamples,
      historyMaxAgeMs: options.historyMaxAgeMs,
    });
    this.#terminal = new Recent(options.terminalLines ?? 300);
    this.#jobs = new PrinterJobs({
      clock: this.#clock,
      uploadsDir: options.uploadsDir,
      scripts: options.jobScripts,
    });
  }

  connection(): ConnectionStatus {
    return structuredClone(this.#status);
  }

  snapshot(): PrinterSnapshot {
    return this.#heaters.snapshot(this.#status.state);
  }

  history(): TemperatureSample[] {
    return this.#heaters.history();
  }

  terminal(): TerminalLine[] {
    return this.#terminal.items();
  }

  job(): JobStatus {
    return this.#jobs.status(this.#status.state);
  }

  subscribe(listener: (event: PrinterEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async ports(): Promise<string[]> {
    return [...await this.#options.listPorts(), VIRTUAL_PORT];
  }

  /**
   * Connects to `port` at `baudrate` (disconnecting first), and resolves once the firmware
   * answered. A failure leaves the printer `OFFLINE` with the reason in the connection's `error`,
   * and rejects with it (a missing port, no permission, a port another program holds, silence).
   */
  async connect(options: ConnectOptions): Promise<void> {
    const port = options.port.trim();
    if (port === "") throw new UsageError("Cannot connect: name a port");
    if (port !== VIRTUAL_PORT && !BAUD_RATES.includes(options.baudrate)) {
      throw new UsageError(
        `Cannot connect at ${options.baudrate} baud: use one of ${BAUD_RATES.join(", ")}`,
        { code: "invalid_baud_rate" },
      );
    }
    await this.disconnect();
    this.#jobs.forgetCutShort();
    const generation = ++this.#generation;
    this.#setStatus({ ...OFFLINE, state: "CONNECTING", port, baudrate: options.baudrate });
    this.#info(`Connecting to ${port} at ${options.baudrate} baud`);
    try {
      const driver = port === VIRTUAL_PORT
        ? new VirtualDriver({ clock: this.#clock, speed: this.#options.virtualSpeed })
        : new MarlinSession(
          await this.#options.openTransport(port, { baudRate: options.baudrate }),
          { ...this.#options.session, clock: this.#clock },
        );
      if (generation !== this.#generation) return void await driver.close();
      this.#driver = driver;
      this.#unsubscribe.push(driver.subscribe((event) => {
        if (generation === this.#generation) this.#onDriver(event);
      }));
      await driver.connect();
      if (generation !== this.#generation) return;
      await this.#startJobs(driver, generation);
      this.#setStatus({ ...this.#status, state: "OPERATIONAL", firmware: driver.firmware });
      this.#info(`Connected to ${driver.firmware?.name ?? "the printer"} on ${port}`);
    } catch (err) {
      if (generation === this.#generation) await this.#drop(messageOf(err));
      throw err;
    }
  }

  async disconnect(): Promise<void> {
    this.#generation++;
    const wasConnected = this.#driver !== null || this.#status.state !== "OFFLINE";
    await this.#closeDriver();
    if (wasConnected) {
      this.#setStatus(OFFLINE);
      this.#info("Disconnected");
    }
  }

  fakeAck(): Promise<void> {
    this.#connected().fakeAck();
    return Promise.resolve();
  }

  async setTargets(targets: Record<string, number>): Promise<void> {
    const driver = this.#connected();
    const entries = Object.entries(targets);
    const commands = entries.map(([heater, celsius]) => {
      this.#heaters.checkKnown(heater);
      return targetCommand(heater, celsius);
    });
    for (const [i, command] of commands.entries()) {
      await driver.send(command);
      // Acknowledged: the target holds now, before the next report says so.
      const [heater, celsius] = entries[i]!;
      if (driver === this.#driver && this.#heaters.setTarget(heater, celsius)) {
        this.#emit({ type: "temperatures", snapshot: this.snapshot() });
      }
    }
  }

  async commands(lines: string[]): Promise<void> {
    const driver = this.#connected();
    for (const line of lines) if (line.trim() !== "") await driver.send(line);
  }

  async selectJob(name: string | null): Promise<void> {
    await this.#jobs.select(name);
    this.#emit({ type: "job", job: this.job() });
  }

  async startJob(name: string): Promise<void> {
    const runner = this.#jobRunner("start a print");
    await this.selectJob(name);
    await runner.start();
  }

  pauseJob(): Promise<void> {
    return Promise.resolve(this.#jobRunner("pause").pause());
  }

  resumeJob(): Promise<void> {
    return Promise.resolve(this.#jobRunner("resume").resume());
  }

  cancelJob(): Promise<void> {
    return Promise.resolve(this.#jobRunner("cancel").cancel());
  }

  restartJob(): Promise<void> {
    return Promise.resolve(this.#jobRunner("restart").restart());
  }

  /** Disconnects and forgets every listener. */
  async close(): Promise<void> {
    await this.disconnect();
    this.#listeners.clear();
  }

  #jobRunner(action: string): JobRunner {
    this.#connected();
    return this.#jobs.runnerFor(action);
  }

  /** A new connection's job runner (the selected file selected again) and SD card watch. */
  async #startJobs(driver: PrinterDriver, generation: number): Promise<void> {
    const stops = await this.#jobs.attach(driver, () => generation === this.#generation, {
      progress: (job) => this.#emit({ type: "job", job }),
      changed: () => this.#emit({ type: "job", job: this.job() }),
      state: (state, error) => this.#onJobState(state, error),
    });
    if (stops) this.#unsubscribe.push(...stops);
  }

  /** The job moved: the printer's state is the job's while the line is fine. */
  #onJobState(state: PrinterState, error: string | null): void {
    if (error) this.#info(`The print failed: ${error}`);
    // Shaking hands again (the board restarted): the handshake's end shows the job's state.
    if (this.#status.state === "OFFLINE" || this.#status.state === "CONNECTING") return;
    this.#setStatus({ ...this.#status, state, error: state === "ERROR" ? error : null });
    this.#emit({ type: "job", job: this.job() });
  }

  #connected(): PrinterDriver {
    const driver = this.#driver;
    if (
      driver === null || this.#status.state === "OFFLINE" || this.#status.state === "CONNECTING"
    ) {
      throw new ConflictError("Cannot talk to the printer: it is not connected", {
        code: "not_connected",
      });
    }
    return driver;
  }

  #onDriver(event: DriverEvent): void {
    switch (event.type) {
      case "temperatures":
        this.#heaters.report(event.temperatures, event.time);
        this.#emit({ type: "temperatures", snapshot: this.snapshot() });
        return;
      case "line":
        return this.#line(event.direction, event.text);
      case "warning":
      case "printerError":
        return this.#info(event.type === "warning" ? event.message : `Error: ${event.message}`);
      case "state":
        return this.#onDriverState(event.state, event.message);
      case "firmware":
        if (this.#status.state !== "CONNECTING") {
          this.#setStatus({ ...this.#status, firmware: event.firmware });
        }
        return;
      default:
        return;
    }
  }

  #onDriverState(state: DriverState, message: string | null): void {
    switch (state) {
      case "operational": {
        const { state } = this.#status;
        const firmware = this.#driver?.firmware;
        if ((state === "ERROR" || state === "CONNECTING") && firmware) {
          // A print that failed meanwhile (the board restarted under it) leaves its error.
          const runner = this.#jobs.runner;
          const job = runner?.state ?? "OPERATIONAL";
          const error = job === "ERROR" ? runner!.error : null;
          this.#setStatus({ ...this.#status, state: job, error, firmware });
        }
        return;
      }
      case "connecting":
        if (this.#status.state !== "CONNECTING") {
          this.#info("The printer restarted: shaking hands again");
          this.#setStatus({ ...this.#status, state: "CONNECTING", firmware: null });
        }
        return;
      case "error":
      case "halted":
        this.#setStatus({
          ...this.#status,
          state: "ERROR",
          error: message ??
            (state === "halted" ? "The printer halted" : "The printer stopped answering"),
        });
        return;
      case "closed":
        // The line went away under us (unplugged, a failed write): offline after error.
        void this.#drop(message ?? "The printer's line closed");
        return;
    }
  }

  async #drop(reason: string): Promise<void> {
    this.#generation++;
    const cut = await this.#closeDriver(true);
    this.#setStatus({
      ...OFFLINE,
      port: this.#status.port,
      baudrate: this.#status.baudrate,
      error: reason,
    });
    this.#info(`Offline after error: ${reason}`);
    if (cut) {
      this.#info(`The print of ${cut.file?.name} failed after ${cut.progress.lines} lines`);
      this.#emit({ type: "job", job: this.job() });
    }
  }

  /** Drops the connection; with `lost`, returns the print it cut short. */
  async #closeDriver(lost = false): Promise<JobStatus | null> {
    const driver = this.#driver;
    this.#driver = null;
    for (const stop of this.#unsubscribe.splice(0)) stop();
    const cut = this.#jobs.detach(lost);
    this.#heaters.clear();
    if (driver) await driver.close().catch(() => {});
    return cut;
  }

  #setStatus(status: ConnectionStatus): void {
    const previous = this.#status.state;
    this.#status = status;
    this.#emit({ type: "connection", status: this.connection() });
    if (previous !== status.state) this.#emit({ type: "state", state: status.state, previous });
  }

  #line(direction: TerminalLine["direction"], text: string): void {
    const line = { time: this.#clock.now(), direction, text };
    this.#terminal.push(line);
    this.#emit({ type: "terminal", line });
  }

  #info(text: string): void {
    this.#line("info", text);
  }

  #emit(event: PrinterEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One failing listener never stops the others.
      }
    }
  }
}
