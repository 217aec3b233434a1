/**
 * The host's copy of the printer process's state, kept by the messages of `./protocol.ts`, so
 * the sync reads of a remote printer answer at once. Pure: no socket, no clock.
 *
 * @module
 */
import type { PrinterEvent, TemperatureSample } from "../printer.ts";
import type { PrinterView, TailUpdate, ViewUpdate } from "./protocol.ts";

/** What a printer looks like before anything was heard of it: offline, nothing known. */
export function offlineView(): PrinterView {
  return {
    connection: { state: "OFFLINE", port: null, baudrate: null, error: null, firmware: null },
    snapshot: { state: "OFFLINE", temperatures: {}, time: 0 },
    job: {
      state: "OFFLINE",
      file: null,
      progress: {
        completion: null,
        filepos: null,
        lines: null,
        printTime: null,
        printTimeLeft: null,
      },
    },
    history: [],
    terminal: [],
  };
}

/**
 * `list` with `tail` applied: its entries appended (those `isNew` accepts), the oldest dropped
 * down to the tail's size.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyTail } from "./mirror.ts";
 * assert.deepEqual(applyTail([1, 2, 3], { append: [4, 5], size: 3 }), [3, 4, 5]);
 * assert.deepEqual(applyTail([1, 2, 3], { append: [], size: 0 }), []);
 * ```
 */
export function applyTail<T>(
  list: readonly T[],
  tail: TailUpdate<T>,
  isNew: (entry: T) => boolean = () => true,
): T[] {
  if (tail.size <= 0) return [];
  const next = list.concat(tail.append.filter(isNew));
  return next.length > tail.size ? next.slice(next.length - tail.size) : next;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The printer's state as the host last heard it. */
export class PrinterMirror {
  #view: PrinterView = offlineView();

  /** The state now (read it, do not change it). */
  get view(): PrinterView {
    return this.#view;
  }

  /**
   * Takes a full state (at every connection to the printer process); returns the events that
   * tell a listener what changed since the state it had (none for what stayed the same).
   */
  replace(full: PrinterView): PrinterEvent[] {
    const before = this.#view;
    this.#view = full;
    const events: PrinterEvent[] = [];
    if (!same(before.connection, full.connection)) {
      events.push({ type: "connection", status: full.connection });
    }
    if (before.snapshot.state !== full.snapshot.state) {
      events.push({ type: "state", state: full.snapshot.state, previous: before.snapshot.state });
    }
    if (!same(before.snapshot.temperatures, full.snapshot.temperatures)) {
      events.push({ type: "temperatures", snapshot: full.snapshot });
    }
    if (!same(before.job, full.job)) events.push({ type: "job", job: full.job });
    return events;
  }

  /** Applies what an event changed. */
  update(update: ViewUpdate): void {
    const v = this.#view;
    const newest = v.history.at(-1)?.time ?? -Infinity;
    this.#view = {
      connection: update.connection,
      snapshot: update.snapshot,
      job: update.job,
      history: update.history
        ? applyTail(v.history, update.history, (s: TemperatureSample) => s.time > newest)
        : v.history,
      terminal: update.terminal ? applyTail(v.terminal, update.terminal) : v.terminal,
    };
  }
}
