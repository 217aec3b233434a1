/**
 * The messages the MQTT publisher holds while the broker is away: with QoS ≥ 1 (at least once)
 * they wait here, up to {@linkcode QUEUE_LIMIT}, and are sent in order when the connection is
 * back; beyond the limit the oldest go first and are counted as dropped. With QoS 0 (at most once)
 * nothing waits: a message that cannot go out is dropped and counted. The publisher saves the
 * waiting messages ({@linkcode OutboundQueue.items}) and puts them back after a restart
 * ({@linkcode OutboundQueue.restore}).
 *
 * @module
 */

/** One message to publish. */
export interface OutboundMessage {
  topic: string;
  payload: string;
  qos: 0 | 1 | 2;
  retain: boolean;
}

/** Messages held at most while disconnected (about 5 minutes of three heaters at 1 Hz). */
export const QUEUE_LIMIT = 1000;

/** A bounded FIFO of messages waiting for the broker. */
export class OutboundQueue {
  #items: OutboundMessage[] = [];
  #dropped = 0;
  #limit: number;

  constructor(limit = QUEUE_LIMIT) {
    this.#limit = limit;
  }

  /** Messages waiting. */
  get size(): number {
    return this.#items.length;
  }

  /** Messages given up on (QoS 0 while away, or pushed out of a full queue). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Holds `m` (QoS ≥ 1) or drops it (QoS 0); a full queue drops its oldest. */
  hold(m: OutboundMessage): void {
    if (m.qos === 0) {
      this.#dropped++;
      return;
    }
    this.#items.push(m);
    if (this.#items.length > this.#limit) {
      this.#items.shift();
      this.#dropped++;
    }
  }

  /** Puts back a message whose delivery failed; it goes out first (it is the oldest). */
  retry(m: OutboundMessage): void {
    if (this.#items.length >= this.#limit) this.#dropped++;
    else this.#items.unshift(m);
  }

  /** The waiting messages, oldest first (a copy). */
  items(): OutboundMessage[] {
    return [...this.#items];
  }

  /**
   * Puts back messages saved before a restart: they are older than any held since, so they go
   * first; beyond the limit the oldest are dropped and counted. Returns how many were dropped.
   */
  restore(saved: readonly OutboundMessage[]): number {
    this.#items = [...saved.filter((m) => m.qos > 0), ...this.#items];
    const over = Math.max(0, this.#items.length - this.#limit);
    this.#items.splice(0, over);
    const dropped = over + saved.filter((m) => m.qos === 0).length;
    this.#dropped += dropped;
    return dropped;
  }

  /** Counts `n` messages given up on before they reached the queue (saved for another broker). */
  lose(n: number): void {
    this.#dropped += n;
  }

  /** Takes every waiting message, oldest first. */
  drain(): OutboundMessage[] {
    return this.#items.splice(0);
  }

  /** Gives up on every waiting message (the connection settings changed). */
  discard(): void {
    this.#dropped += this.#items.length;
    this.#items = [];
  }
}
