/**
 * Event fan-out for server-sent events: every event gets a sequence number, the last events
 * are kept in a bounded backlog (replayed to a client that connects or reconnects with
 * `Last-Event-ID`), and one failing subscriber never affects the others.
 *
 * @module
 */

/** An event with its sequence number. */
export interface Numbered<T> {
  id: number;
  event: T;
}

/** Options of {@linkcode EventHub}. */
export interface EventHubOptions {
  /** Events kept for replay. @default 1000 */
  backlog?: number;
}

/** A fan-out of events to subscribers with a bounded replay backlog. */
export class EventHub<T> {
  #seq = 0;
  #backlog: Numbered<T>[] = [];
  #max: number;
  #subscribers = new Set<(item: Numbered<T>) => void>();

  constructor(options: EventHubOptions = {}) {
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
