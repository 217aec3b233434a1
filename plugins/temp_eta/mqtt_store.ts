/**
 * The MQTT publisher's state on disk (`<plugin data folder>/mqtt_state.json`): the outage queue
 * with the broker and prefix it was queued for, and the record of retained topics per broker. It
 * is written atomically (a temporary file, then a rename), so a crash leaves the previous state or
 * the new one, never half a file. A file that cannot be parsed is a {@linkcode StorageError}.
 * {@linkcode MqttStateFile} saves at most once per `delayMs` while the state changes (and at
 * once on {@linkcode MqttStateFile.flush}, the plugin's stop): a crash loses at most the last
 * second of queued messages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadMqttState, saveMqttState } from "./mqtt_store.ts";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/mqtt_state.json`;
 * assert.equal(await loadMqttState(path), null);
 * const state = {
 *   broker: "mqtt://b:1883",
 *   prefix: "p",
 *   queue: [{ topic: "p/bed", payload: "{}", qos: 1 as const, retain: false }],
 *   retained: [{ broker: "mqtt://b:1883", prefix: "p", topic: "p/status" }],
 * };
 * await saveMqttState(path, state);
 * assert.deepEqual(await loadMqttState(path), state);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import { messageOf, StorageError } from "../../lib/error.ts";
import { writeFileAtomic } from "../../lib/fs.ts";
import type { Logger } from "../../lib/log.ts";
import { isPlainObject } from "../../lib/shared/json_object.ts";
import { type OutboundMessage, type OutboundQueue, QUEUE_LIMIT } from "./mqtt_queue.ts";
import type { RetainedTopic } from "./mqtt_retained.ts";

/** The name of the state file in the plugin's data folder. */
export const MQTT_STATE_FILE = "mqtt_state.json";

/** What the publisher keeps across restarts. */
export interface MqttState {
  /** The broker URL the queue waits for (null: nothing queued). */
  broker: string | null;
  /** The topic prefix of the queued messages. */
  prefix: string | null;
  /** The outage queue, oldest first. */
  queue: OutboundMessage[];
  /** The retained topics left on brokers. */
  retained: RetainedTopic[];
}

const isString = (v: unknown): v is string => typeof v === "string";
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";

function isMessage(v: unknown): v is OutboundMessage {
  return isPlainObject(v) && isString(v.topic) && isString(v.payload) &&
    (v.qos === 0 || v.qos === 1 || v.qos === 2) && typeof v.retain === "boolean";
}

function isRetained(v: unknown): v is RetainedTopic {
  return isPlainObject(v) && isString(v.broker) && isString(v.prefix) && isString(v.topic);
}

/** Parses the state file's text; anything else than a valid state is a {@linkcode StorageError}. */
export function parseMqttState(text: string): MqttState {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new StorageError(`not JSON (${err instanceof Error ? err.message : err})`);
  }
  if (
    !isPlainObject(data) || !isStringOrNull(data.broker) || !isStringOrNull(data.prefix) ||
    !Array.isArray(data.queue) || !data.queue.every(isMessage) ||
    !Array.isArray(data.retained) || !data.retained.every(isRetained)
  ) {
    throw new StorageError("not an MQTT state (broker, prefix, queue, retained)");
  }
  return {
    broker: data.broker,
    prefix: data.prefix,
    queue: data.queue.map(({ topic, payload, qos, retain }) => ({ topic, payload, qos, retain })),
    retained: data.retained.map(({ broker, prefix, topic }) => ({ broker, prefix, topic })),
  };
}

/** Reads the state at `path`; null when there is none. */
export async function loadMqttState(path: string): Promise<MqttState | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  return parseMqttState(text);
}

/** Writes the state at `path` atomically (its folder, the plugin's data folder, must exist). */
export async function saveMqttState(path: string, state: MqttState): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(state) + "\n");
}

/** The publisher's state file: loaded once, saved after changes (debounced), flushed on stop. */
export class MqttStateFile {
  #path: string;
  #clock: Clock;
  #logger: Logger;
  #delayMs: number;
  #snapshot: () => MqttState;
  #cancel: (() => void) | null = null;
  #saving: Promise<void> = Promise.resolve();
  #failing = false;

  constructor(
    path: string,
    o: { clock: Clock; logger: Logger; snapshot: () => MqttState; delayMs?: number },
  ) {
    this.#path = path;
    this.#clock = o.clock;
    this.#logger = o.logger;
    this.#snapshot = o.snapshot;
    this.#delayMs = o.delayMs ?? 1000;
  }

  /**
   * The saved state; a damaged file is logged, kept aside as `<name>.bad`, and read as none.
   * Saves wait for it.
   */
  load(): Promise<MqttState | null> {
    const loaded = this.#load();
    this.#saving = loaded.then(() => {});
    return loaded;
  }

  async #load(): Promise<MqttState | null> {
    try {
      return await loadMqttState(this.#path);
    } catch (err) {
      const aside = `${this.#path}.bad`;
      await Deno.rename(this.#path, aside).catch(() => {});
      this.#logger.warn(
        `MQTT state ${this.#path} unreadable (${messageOf(err)}); moved to ${aside}`,
      );
      return null;
    }
  }

  /** The state changed: it is saved within `delayMs`. */
  changed(): void {
    if (this.#cancel) return;
    this.#cancel = this.#clock.setTimeout(() => {
      this.#cancel = null;
      this.#save();
    }, this.#delayMs);
  }

  /** Saves now when a save is pending, and waits for every save begun. */
  async flush(): Promise<void> {
    if (this.#cancel) {
      this.#cancel();
      this.#cancel = null;
      this.#save();
    }
    await this.#saving;
  }

  #save(): void {
    // The state as it is when the previous save (or the load) is done.
    const save = () => saveMqttState(this.#path, this.#snapshot());
    this.#saving = this.#saving.then(save).then(() => {
      if (this.#failing) this.#logger.info(`MQTT state saved to ${this.#path} again`);
      this.#failing = false;
    }, (err) => {
      // Logged once per run of failures; the next change tries again.
      if (!this.#failing) {
        this.#logger.warn(`MQTT state not saved to ${this.#path}: ${messageOf(err)}`);
      }
      this.#failing = true;
    });
  }
}

/**
 * Puts a queue saved before a restart back into `queue` when it was for broker `c.url` and prefix
 * `c.prefix` (beyond the limit the oldest are dropped); otherwise drops it. Both counted and logged.
 */
export function restoreQueue(
  queue: OutboundQueue,
  saved: MqttState,
  c: { url: string; prefix: string },
  logger: Logger,
): void {
  const n = saved.queue.length;
  if (saved.broker !== c.url || saved.prefix !== c.prefix) {
    queue.lose(n);
    logger.warn(
      `MQTT dropped ${n} messages queued before the restart for ${saved.broker} ` +
        `(prefix ${saved.prefix}): the broker or prefix changed`,
    );
    return;
  }
  const dropped = queue.restore(saved.queue);
  logger.info(
    `MQTT put back ${n - dropped} messages queued before the restart` +
      (dropped > 0 ? ` (${dropped} dropped beyond the limit of ${QUEUE_LIMIT})` : ""),
  );
}
