/**
 * A {@linkcode PrinterDriver} for the job's tests: it records what is sent and acknowledges
 * each command at once, unless a test's `onSend` hook answers (or fails) otherwise.
 *
 * @module
 */
import type { DriverEvent, DriverState, PrinterDriver } from "../../../../lib/printer/driver.ts";

/** What a test makes of one sent command: lines answered, or a failure. */
export type OnSend = (command: string, index: number) => string[] | Promise<string[]> | void;

/** The fake driver. */
export class FakeDriver implements PrinterDriver {
  state: DriverState = "operational";
  firmware: { name: string | null; capabilities: Record<string, boolean> } | null = null;
  /** Every command sent, in order (while `record`). */
  readonly sent: string[] = [];
  /** Whether to keep what is sent in `sent`. */
  record = true;
  #count = 0;
  /** Called on each command; its answer (or rejection) is the command's. */
  onSend: OnSend = () => {};
  #listeners = new Set<(event: DriverEvent) => void>();

  connect(): Promise<unknown> {
    return Promise.resolve(this.firmware);
  }

  async send(command: string): Promise<string[]> {
    const index = this.#count++;
    if (this.record) this.sent.push(command);
    this.emit({ type: "line", direction: "sent", text: `N${index + 1} ${command}*0` });
    return (await this.onSend(command, index)) ?? ["ok"];
  }

  fakeAck(): void {}

  subscribe(listener: (event: DriverEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells the listeners. */
  emit(event: DriverEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  /** Moves to `state` and tells the listeners. */
  setState(state: DriverState, message: string | null = null): void {
    const previous = this.state;
    this.state = state;
    this.emit({ type: "state", state, previous, message });
  }

  /** Number of listeners (a finished job leaves none). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  close(): Promise<void> {
    this.setState("closed", "Closed by the host");
    return Promise.resolve();
  }
}
