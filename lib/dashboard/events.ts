/**
 * Event fan-out for server-sent events: every event gets a sequence number, the last events
 * are kept in a bounded backlog (replayed to a client that connects or reconnects with
 * `Last-Event-ID`), and one failing subscriber never affects the others. The hub also holds the
 * caps on its event streams ({@linkcode EventHub.slots}: per client address and overall), which
 * `sseResponse()` takes a slot of for each stream.
 *
 * @module
 */
import { ConnectionSlots, type SlotLimits } from "../http/mod.ts";

/** Event streams one client address may hold at once. */
export const STREAMS_PER_CLIENT = 32;
/** Event streams held at once over all clients. */
export const STREAMS_TOTAL = 128;

/** An event with its sequence number. */
export interface Numbered<T> {
  id: number;
  event: T;
}

/** Options of {@linkcode EventHub}. */
export interface EventHubOptions {
  /** Events kept for replay. @default 1000 */
  backlog?: number;
  /** Caps on the event streams. @default {perKey: STREAMS_PER_CLIENT, total: STREAMS_TOTAL} */
  streams?: SlotLimits;
}

/** A fan-out of events to subscribers with a bounded replay backlog. */
export class EventHub<T> {
  #seq = 0;
  #backlog: Numbered<T>[] = [];
  #max: number;
  #subscribers = new Set<(item: Numbered<T>) => void>();
  /** The caps on the streams following this hub (a stream takes a slot while it lasts). */
  readonly slots: ConnectionSlots;

  constructor(options: EventHubOptions = {}) {
    this.slots = new ConnectionSlots(
      options.streams ?? { perKey: STREAMS_PER_CLIENT, total: STREAMS_TOTAL },
    );
    this.#max = options.backlog ?? 1000;
    if (!Number.isInteger(this.#max) || this.#max < 0) {
      throw new RangeError("Cannot create hub: 'backlog' must be a non-negative integer");
    }
  }

  /** Number of subscribers. */
  get size(): number {
    return this.#subscribers.size;
  }

  /** The id of the newest event (0 before the first). */
  get lastId(): number {
    return this.#seq;
  }

  /** Publishes an event to every subscriber and the backlog. */
  publish(event: T): Numbered<T> {
    const item = { id: ++this.#seq, event };
    this.#backlog.push(item);
    if (this.#backlog.length > this.#max) this.#backlog.splice(0, this.#backlog.length - this.#max);
    for (const fn of this.#subscribers) {
      try {
        fn(item);
      } catch {
        this.#subscribers.delete(fn);
      }
    }
    return item;
  }

  /** Empties the backlog (a new run starts). */
  clearBacklog(): void {
    this.#backlog = [];
  }

  /** The backlog events newer than `afterId`. */
  since(afterId = 0): Numbered<T>[] {
    return this.#backlog.filter((e) => e.id > afterId);
  }

  /**
   * Subscribes; first replays the backlog after `afterId` (`null`: no replay). Returns the
   * function that unsubscribes.
   */
  subscribe(fn: (item: Numbered<T>) => void, afterId: number | null = 0): () => void {
    if (afterId !== null) { for (const item of this.since(afterId)) fn(item); }
    this.#subscribers.add(fn);
    return () => this.#subscribers.delete(fn);
  }
}
