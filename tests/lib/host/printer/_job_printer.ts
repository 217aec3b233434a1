/**
 * The least {@linkcode Printer} that prints: a `JobRunner` over the job tests' fake driver and
 * the host's uploads folder, for the routes' tests. Connection, heaters and terminal are stubs.
 *
 * @module
 */
import type { Clock } from "../../../../lib/clock.ts";
import { JobRunner } from "../../../../lib/printer/job/mod.ts";
import type {
  ConnectionStatus,
  JobStatus,
  Printer,
  PrinterEvent,
  PrinterSnapshot,
} from "../../../../lib/printer/printer.ts";
import type { UploadsFolder } from "../../../../lib/printer/uploads.ts";
import { FakeDriver } from "../../printer/job/_fake_driver.ts";

/** A printer that prints the uploads folder's files through a fake driver. */
export class JobPrinter implements Printer {
  readonly driver = new FakeDriver();
  readonly runner: JobRunner;
  /** The folder it prints from (the host's; set once the host exists). */
  uploads: UploadsFolder | null = null;
  /** Whether it is connected; offline, its job's state is OFFLINE. */
  online = true;

  constructor(clock: Clock) {
    this.runner = new JobRunner(this.driver, { clock });
  }

  job(): JobStatus {
    const job = this.runner.status();
    return this.online ? job : { ...job, state: "OFFLINE" };
  }

  async selectJob(name: string | null): Promise<void> {
    this.runner.select(name === null ? null : await this.uploads!.jobFile(name));
  }

  async startJob(name: string): Promise<void> {
    await this.selectJob(name);
    await this.runner.start();
  }

  pauseJob(): Promise<void> {
    return Promise.resolve(this.runner.pause());
  }

  resumeJob(): Promise<void> {
    return Promise.resolve(this.runner.resume());
  }

  cancelJob(): Promise<void> {
    return Promise.resolve(this.runner.cancel());
  }

  restartJob(): Promise<void> {
    return Promise.resolve(this.runner.restart());
  }

  snapshot(): PrinterSnapshot {
    return { state: this.job().state, temperatures: {}, time: 0 };
  }

  subscribe(_listener: (event: PrinterEvent) => void): () => void {
    return () => {};
  }

  history() {
    return [];
  }

  connection(): ConnectionStatus {
    return { state: this.job().state, port: null, baudrate: null, error: null, firmware: null };
  }

  ports(): Promise<string[]> {
    return Promise.resolve([]);
  }

  connect(): Promise<void> {
    this.online = true;
    return Promise.resolve();
  }

  disconnect(): Promise<void> {
    this.online = false;
    return Promise.resolve();
  }

  fakeAck(): Promise<void> {
    return Promise.resolve();
  }

  setTargets(): Promise<void> {
    return Promise.resolve();
  }

  commands(): Promise<void> {
    return Promise.resolve();
  }

  terminal() {
    return [];
  }
}
