/**
 * A connected printer's command channel, whatever speaks on the other side: a `MarlinSession`
 * over a serial line (`./marlin/`), or the built-in virtual printer (`VIRTUAL`). The printer
 * service (connection, targets, job, terminal) drives either through this.
 *
 * @module
 */
import type { MarlinEvent, SessionState } from "./marlin/mod.ts";

/** What a driver tells its listeners: the events of a Marlin session. */
export type DriverEvent = MarlinEvent;

/** Where a driver stands: the states of a Marlin session. */
export type DriverState = SessionState;

/** A connected printer's command channel. */
export interface PrinterDriver {
  readonly state: DriverState;
  /** What the firmware said of itself (`M115`); null before the handshake. */
  readonly firmware: { name: string | null; capabilities: Record<string, boolean> } | null;
  /** Shakes hands; resolves once the firmware answered. Call once. */
  connect(): Promise<unknown>;
  /**
   * Sends one command (a G-code line, comments stripped by the caller or not); resolves with the
   * lines answered to it, its `ok` last, once the printer acknowledged it.
   */
  send(command: string): Promise<string[]>;
  /** Pretends an `ok` arrived. */
  fakeAck(): void;
  subscribe(listener: (event: DriverEvent) => void): () => void;
  /** Closes the channel and the line under it; safe to call more than once. */
  close(): Promise<void>;
}
