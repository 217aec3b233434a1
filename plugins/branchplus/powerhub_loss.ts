/**
 * Watches the hub connection for a loss longer than the grace period (`failsafe_grace`). A short
 * loss is only re-synced on return; a long one is announced (log and `failsafe` push) when the
 * grace period ends, and the controller applies the failsafe when the hub comes back (commands
 * cannot reach a hub that is gone).
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/log.ts";

/** Options of {@linkcode HubLossWatch}. */
export interface HubLossOptions {
  clock: Clock;
  logger: Logger;
  /** The grace period in ms, read when a loss starts. */
  graceMs(): number;
  push(data: Record<string, unknown>): void;
}

/** The loss state of one controller. */
export class HubLossWatch {
  readonly #o: HubLossOptions;
  #cancel: (() => void) | undefined;
  #due = false;

  constructor(options: HubLossOptions) {
    this.#o = options;
  }

  /** The connection was lost: starts the grace period (once per loss). */
  lost(): void {
    if (this.#cancel || this.#due) return;
    const graceMs = this.#o.graceMs();
    this.#cancel = this.#o.clock.setTimeout(() => {
      this.#cancel = undefined;
      this.#due = true;
      this.#o.logger.warn(
        `The hub has been lost for ${graceMs / 1000} s: its outputs take their failsafe state ` +
          "when it is back",
      );
      this.#o.push({ type: "failsafe", reason: "hub_lost", pending: true });
    }, graceMs);
  }

  /** The connection is back: a loss shorter than the grace period is forgotten. */
  found(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  /** Whether the failsafe is due (a long loss ended); clears it. */
  takeFailsafeDue(): boolean {
    const due = this.#due;
    this.#due = false;
    return due;
  }

  /** Cancels the grace timer. */
  stop(): void {
    this.found();
    this.#due = false;
  }
}
