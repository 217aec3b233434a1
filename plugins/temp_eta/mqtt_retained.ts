/**
 * The record of the retained topics the MQTT publisher left on each broker: the availability topic
 * `{prefix}/status` (always retained) and, while `mqtt_retain` is on, `{prefix}/{heater}` and
 * `{prefix}/{heater}/state_change`. A topic the current settings no longer publish retained (retain
 * turned off, or another prefix) is stale: the publisher clears it with an empty retained message,
 * then forgets it. The record is kept per broker, since only that broker holds the messages; it is
 * saved with the publisher's state so that it also works after a restart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RetainedRecord } from "./mqtt_retained.ts";
 * const r = new RetainedRecord();
 * r.add({ broker: "mqtt://b:1883", prefix: "a", topic: "a/status" });
 * r.add({ broker: "mqtt://b:1883", prefix: "a", topic: "a/bed" });
 * assert.deepEqual(r.stale("mqtt://b:1883", "a", false).map((t) => t.topic), ["a/bed"]);
 * assert.deepEqual(r.stale("mqtt://b:1883", "x", true).map((t) => t.topic), ["a/status", "a/bed"]);
 * assert.deepEqual(r.stale("mqtt://other:1883", "x", false), []);
 * ```
 *
 * @module
 */
import type { MqttClientLike } from "./mqtt_client.ts";

/** One retained topic the publisher left on a broker, with the prefix it was published under. */
export interface RetainedTopic {
  broker: string;
  prefix: string;
  topic: string;
}

/** The availability topic of a prefix (`online` retained, `offline` as the last will). */
export function statusTopic(prefix: string): string {
  return `${prefix}/status`;
}

const keyOf = (t: RetainedTopic) => JSON.stringify([t.broker, t.prefix, t.topic]);

/** The retained topics left on brokers, in the order they were first published. */
export class RetainedRecord {
  #items = new Map<string, RetainedTopic>();

  constructor(items: readonly RetainedTopic[] = []) {
    for (const t of items) this.add(t);
  }

  /** Notes a retained publication; true when the topic is new to the record. */
  add(t: RetainedTopic): boolean {
    const key = keyOf(t);
    if (this.#items.has(key)) return false;
    this.#items.set(key, { broker: t.broker, prefix: t.prefix, topic: t.topic });
    return true;
  }

  /** Forgets a topic (it was cleared); true when it was in the record. */
  remove(t: RetainedTopic): boolean {
    return this.#items.delete(keyOf(t));
  }

  /**
   * The topics of `broker` that publishing under `prefix` with `retain` does not keep: every topic
   * of another prefix, and with retain off every topic of `prefix` but its status topic.
   */
  stale(broker: string, prefix: string, retain: boolean): RetainedTopic[] {
    return this.list().filter((t) =>
      t.broker === broker &&
      !(t.prefix === prefix && (retain || t.topic === statusTopic(prefix)))
    );
  }

  /** Every recorded topic. */
  list(): RetainedTopic[] {
    return [...this.#items.values()];
  }
}

/**
 * Clears the topics of `record` on `where.broker` that publishing under `where.prefix` with
 * `where.retain` no longer keeps: an empty retained message (QoS 1) each, forgotten once the broker
 * acknowledges it (then `onCleared`); one that fails stays recorded for the next connection.
 * Topics in `clearing` are on their way already. Returns the topics sent now.
 */
export function clearStale(
  client: Pick<MqttClientLike, "publish">,
  record: RetainedRecord,
  where: { broker: string; prefix: string; retain: boolean },
  clearing: Set<string>,
  onCleared: (t: RetainedTopic) => void,
): RetainedTopic[] {
  const stale = record.stale(where.broker, where.prefix, where.retain)
    .filter((t) => !clearing.has(t.topic));
  for (const t of stale) {
    clearing.add(t.topic);
    client.publish(t.topic, "", { qos: 1, retain: true }, (err?: Error) => {
      clearing.delete(t.topic);
      if (!err && record.remove(t)) onCleared(t);
    });
  }
  return stale;
}
