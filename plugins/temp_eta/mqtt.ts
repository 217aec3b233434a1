/**
 * MQTT publishing of the heaters' ETAs: `{prefix}/{heater}` (the DECISIONS.md payload) and
 * `{prefix}/{heater}/state_change`, with `mqtt_qos` and `mqtt_retain`; `{prefix}/status` is
 * `online` while connected and `offline` (the last will, and published on a clean stop). The
 * connection never blocks the host: it is made in the background, retried with exponential
 * backoff on the injected clock, and remade at once when a connection setting (the prefix too: it
 * names the will) changes. Retained topics the settings no longer keep are cleared
 * (`mqtt_retained.ts`). While the broker is away QoS ≥ 1 messages wait in a bounded queue, saved
 * across restarts (`mqtt_store.ts`), and QoS 0 ones are dropped; the loss, the recovery and a full
 * queue are each logged once per outage. Details: the plugin's README.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import { messageOf } from "../../lib/error.ts";
import type { Logger } from "../../lib/log.ts";
import type { TempEtaSettings } from "./schema.ts";
import { type HeaterStatus, mqttPayload } from "./status.ts";
import {
  clientOptions,
  connectionOf,
  disconnect,
  mqttClientFactory,
  ONLINE,
} from "./mqtt_client.ts";
import type { MqttClientFactory, MqttClientLike, MqttConnection } from "./mqtt_client.ts";
import { type OutboundMessage, OutboundQueue, QUEUE_LIMIT } from "./mqtt_queue.ts";
import { clearStale, RetainedRecord, type RetainedTopic, statusTopic } from "./mqtt_retained.ts";
import { type MqttState, MqttStateFile, restoreQueue } from "./mqtt_store.ts";

/** What `GET /api/plugin/<id>` reports of MQTT. */
export interface MqttStatus {
  enabled: boolean;
  connected: boolean;
  broker: string | null;
  /** The availability topic (`online` / `offline`, retained). */
  status_topic: string | null;
  last_error: string | null;
  /** Messages acknowledged (QoS ≥ 1) or handed to the socket (QoS 0). */
  published: number;
  /** Messages waiting for the broker to come back (QoS ≥ 1), saved across restarts. */
  queued: number;
  /** Messages given up on: QoS 0 while away, beyond the queue's limit, or saved for another broker. */
  dropped: number;
  /** Retained topics cleared because the settings no longer publish them retained. */
  cleared: number;
}

/** Options of {@linkcode MqttPublisher}. */
export interface MqttPublisherOptions {
  clock: Clock;
  logger: Logger;
  /** @default the npm `mqtt` client */
  factory?: MqttClientFactory;
  /** Reads the CA file named by `mqtt_ca_cert`. @default Deno.readTextFile */
  readTextFile?: (path: string) => Promise<string>;
  /** First reconnect delay in ms, doubled per failed attempt. @default 1000 */
  backoffInitialMs?: number;
  /** Longest reconnect delay in ms. @default 30000 */
  backoffMaxMs?: number;
  /** Where the queue and the retained record are saved; null keeps them in memory. @default null */
  statePath?: string | null;
  /** How long a clean stop waits for the broker to take `offline`. @default 2000 */
  closeTimeoutMs?: number;
}

/** Publishes heater statuses to an MQTT broker. */
export class MqttPublisher {
  #o: Required<Omit<MqttPublisherOptions, "statePath">>;
  #settings: TempEtaSettings | null = null;
  #connection: MqttConnection | null = null;
  /** The last connection configured: the queue waits for it (also after close()). */
  #queueFor: MqttConnection | null = null;
  #client: MqttClientLike | null = null;
  /** The connection `#client` was made for. */
  #clientConnection: MqttConnection | null = null;
  #generation = 0;
  #attempt = 0;
  #cancelRetry: (() => void) | null = null;
  #lastError: string | null = null;
  #published = 0;
  #cleared = 0;
  #queue = new OutboundQueue();
  #retained = new RetainedRecord();
  #clearing = new Set<string>();
  #lastState = new Map<string, string>();
  /** Since when (ms) the broker is away: set at the first failure or loss, cleared on connect. */
  #awaySince: number | null = null;
  /** Dropped count when the outage began, for the recovery line. */
  #droppedBefore = 0;
  #fullLogged = false;
  #everConnected = false;
  #file: MqttStateFile | null = null;
  /** The saved state until the first connection attempt takes its queue (or drops it). */
  #saved: Promise<MqttState | null>;
  #savedState: MqttState | null = null;
  #savedTaken = false;
  /** The previous client's clean disconnect: the next connection waits for it. */
  #dropping: Promise<void> = Promise.resolve();

  constructor(options: MqttPublisherOptions) {
    const { statePath = null, ...rest } = options;
    this.#o = {
      factory: mqttClientFactory,
      readTextFile: (path) => Deno.readTextFile(path),
      backoffInitialMs: 1000,
      backoffMaxMs: 30000,
      closeTimeoutMs: 2000,
      ...rest,
    };
    if (statePath !== null) {
      this.#file = new MqttStateFile(statePath, {
        clock: this.#o.clock,
        logger: this.#o.logger,
        snapshot: () => this.#snapshot(),
      });
    }
    this.#saved = this.#file ? this.#file.load() : Promise.resolve(null);
    this.#saved.then((state) => {
      this.#savedState = state;
      // Retained topics are remembered whatever the queue's fate.
      for (const t of state?.retained ?? []) this.#retained.add(t);
    });
  }

  /** Applies settings: connects, disconnects, or reconnects when a connection field changed. */
  configure(settings: TempEtaSettings): void {
    this.#settings = settings;
    const next = settings.mqtt_enabled ? connectionOf(settings) : null;
    if (JSON.stringify(next) === JSON.stringify(this.#connection)) {
      this.#clearStale(); // mqtt_retain may have changed
      return;
    }
    this.#connection = next;
    if (next) this.#queueFor = next;
    this.#attempt = 0;
    this.#lastError = null;
    this.#awaySince = null;
    this.#everConnected = false;
    if (this.#queue.size > 0) {
      this.#queue.discard();
      this.#changed();
    }
    this.#drop(true);
    if (next) this.#connect();
  }

  /** Publishes a heater's status (and its state change); held or dropped while away. */
  publish(status: HeaterStatus): void {
    const s = this.#settings;
    if (!s?.mqtt_enabled || !this.#connection) return;
    const base = `${s.mqtt_topic_prefix}/${status.heater}`;
    const options = { qos: s.mqtt_qos, retain: s.mqtt_retain };
    this.#send({ topic: base, payload: JSON.stringify(mqttPayload(status)), ...options });
    const previous = this.#lastState.get(status.heater);
    this.#lastState.set(status.heater, status.state);
    if (previous !== undefined && previous !== status.state) {
      const change = {
        heater: status.heater,
        state: status.state,
        previous_state: previous,
        timestamp: status.timestamp,
        actual: status.actual,
        target: status.target,
      };
      this.#send({ topic: `${base}/state_change`, payload: JSON.stringify(change), ...options });
    }
  }

  #send(m: OutboundMessage): void {
    const client = this.#client;
    const c = this.#clientConnection;
    if (!client?.connected || !c) {
      const before = this.#queue.dropped;
      this.#queue.hold(m);
      if (m.qos > 0) this.#changed();
      if (m.qos > 0 && this.#queue.dropped > before && !this.#fullLogged) {
        this.#fullLogged = true;
        this.#o.logger.warn(
          `MQTT outage queue full (${QUEUE_LIMIT} messages): the oldest are dropped and counted`,
        );
      }
      return;
    }
    if (m.retain) this.#noteRetained({ broker: c.url, prefix: c.prefix, topic: m.topic });
    client.publish(m.topic, m.payload, { qos: m.qos, retain: m.retain }, (err?: Error) => {
      if (!err) {
        this.#published++;
        return;
      }
      this.#lastError = messageOf(err);
      // A QoS ≥ 1 message the broker never acknowledged goes out again after the reconnect.
      if (m.qos > 0 && this.#connection) {
        this.#queue.retry(m);
        this.#changed();
      }
    });
  }

  #noteRetained(t: RetainedTopic): void {
    if (this.#retained.add(t)) this.#changed();
  }

  /** Clears the recorded retained topics of this broker that the settings no longer keep. */
  #clearStale(): void {
    const client = this.#client;
    const c = this.#clientConnection;
    if (!client?.connected || !c || !this.#settings) return;
    const where = { broker: c.url, prefix: c.prefix, retain: this.#settings.mqtt_retain };
    const sent = clearStale(client, this.#retained, where, this.#clearing, () => {
      this.#cleared++;
      this.#changed();
    });
    if (sent.length === 0) return;
    this.#o.logger.info(
      `MQTT clears ${sent.length} retained topics no longer published retained: ` +
        sent.map((t) => t.topic).join(", "),
    );
  }

  /** The connection state for the status route. */
  status(): MqttStatus {
    const c = this.#connection;
    return {
      enabled: c !== null,
      connected: c !== null && this.#client?.connected === true,
      broker: c ? c.url : null,
      status_topic: c ? statusTopic(c.prefix) : null,
      last_error: this.#lastError,
      published: this.#published,
      queued: this.#queue.size,
      dropped: this.#queue.dropped,
      cleared: this.#cleared,
    };
  }

  /** Drops the connection (cleanly) and any pending retry, then reconnects (when enabled). */
  reconnect(): void {
    this.#attempt = 0;
    this.#drop(true);
    if (this.#connection) this.#connect();
  }

  /** Publishes `offline`, disconnects cleanly, stops retrying, and saves the state. */
  async close(): Promise<void> {
    this.#connection = null;
    await this.#drop(true);
    await this.#file?.flush();
  }

  #changed(): void {
    this.#file?.changed();
  }

  #snapshot(): MqttState {
    const c = this.#queueFor;
    const saved = this.#savedState;
    // A queue saved before the restart and not yet taken back stays on disk as it was.
    if (!this.#savedTaken && saved && saved.queue.length > 0) {
      return { ...saved, retained: this.#retained.list() };
    }
    return {
      broker: c?.url ?? null,
      prefix: c?.prefix ?? null,
      queue: this.#queue.items(),
      retained: this.#retained.list(),
    };
  }

  /**
   * Forgets the client. A clean drop of a connected client publishes `offline` on its status
   * topic and disconnects (so the broker discards the will); the next connection waits for it.
   */
  #drop(clean: boolean): Promise<void> {
    this.#generation++;
    this.#cancelRetry?.();
    this.#cancelRetry = null;
    const client = this.#client;
    const c = this.#clientConnection;
    this.#client = null;
    this.#clientConnection = null;
    this.#clearing.clear();
    if (!client) return this.#dropping;
    const topic = clean && c ? statusTopic(c.prefix) : null;
    const goodbye = () => disconnect(client, topic, (p) => this.#within(p));
    this.#dropping = this.#dropping.then(goodbye);
    return this.#dropping;
  }

  /** `p`, or undefined when it takes longer than `closeTimeoutMs`. */
  #within<T>(p: Promise<T>): Promise<T | undefined> {
    return new Promise((resolve) => {
      const cancel = this.#o.clock.setTimeout(() => resolve(undefined), this.#o.closeTimeoutMs);
      p.then((v) => {
        cancel();
        resolve(v);
      });
    });
  }

  #connect(): void {
    const generation = this.#generation;
    const connection = this.#connection!;
    const ca = connection.caPath === null
      ? Promise.resolve(connection.caText)
      : this.#o.readTextFile(connection.caPath);
    Promise.all([ca, this.#saved, this.#dropping]).then(([caText, saved]) => {
      if (generation !== this.#generation) return;
      this.#takeSaved(saved, connection);
      const client = this.#o.factory(connection.url, clientOptions(connection, caText));
      this.#client = client;
      this.#clientConnection = connection;
      client.on("connect", () => {
        if (generation !== this.#generation) return;
        this.#attempt = 0;
        this.#lastError = null;
        this.#onConnected(client, connection);
      });
      client.on("error", (err: Error) => {
        if (generation === this.#generation) this.#lastError = messageOf(err);
      });
      client.on("close", () => {
        if (generation !== this.#generation) return;
        this.#onAway(connection.url);
        this.#scheduleRetry(generation);
      });
    }).catch((err) => {
      this.#lastError = `Cannot read 'mqtt_ca_cert': ${messageOf(err)}`;
      this.#onAway(connection.url);
      this.#scheduleRetry(generation);
    });
  }

  /** Puts the queue saved before a restart back (once), when it was for this broker and prefix. */
  #takeSaved(saved: MqttState | null, c: MqttConnection): void {
    if (this.#savedTaken || !saved || saved.queue.length === 0) return;
    this.#savedTaken = true;
    restoreQueue(this.#queue, saved, c, this.#o.logger);
    this.#changed();
  }

  /** The first failure of an outage (or of the first connection) is logged; retries are not. */
  #onAway(url: string): void {
    if (this.#awaySince !== null) return;
    this.#awaySince = this.#o.clock.now();
    this.#droppedBefore = this.#queue.dropped;
    const reason = this.#lastError ?? "connection closed";
    const held = this.#settings?.mqtt_qos
      ? `messages are queued (up to ${QUEUE_LIMIT})`
      : "QoS 0 messages are dropped";
    this.#o.logger.warn(
      this.#everConnected
        ? `MQTT connection to ${url} lost (${reason}); reconnecting, ${held}`
        : `MQTT cannot connect to ${url} (${reason}); retrying, ${held}`,
    );
  }

  #onConnected(client: MqttClientLike, c: MqttConnection): void {
    const status = statusTopic(c.prefix);
    this.#noteRetained({ broker: c.url, prefix: c.prefix, topic: status });
    client.publish(status, ONLINE, { qos: 1, retain: true }, (err?: Error) => {
      if (err) this.#lastError = messageOf(err);
    });
    const queued = this.#queue.drain();
    for (const m of queued) this.#send(m);
    if (queued.length > 0) this.#changed();
    this.#clearStale();
    if (this.#awaySince === null) {
      this.#o.logger.info(`MQTT connected to ${c.url}`);
    } else {
      const seconds = Math.round((this.#o.clock.now() - this.#awaySince) / 1000);
      const dropped = this.#queue.dropped - this.#droppedBefore;
      this.#o.logger.info(
        `MQTT connection to ${c.url} ${this.#everConnected ? "restored" : "established"} after ` +
          `${seconds} s; ${queued.length} queued messages sent, ${dropped} dropped`,
      );
    }
    this.#awaySince = null;
    this.#fullLogged = false;
    this.#everConnected = true;
  }

  #scheduleRetry(generation: number): void {
    if (generation !== this.#generation || this.#cancelRetry || !this.#connection) return;
    const delay = Math.min(this.#o.backoffMaxMs, this.#o.backoffInitialMs * 2 ** this.#attempt);
    this.#attempt++;
    this.#cancelRetry = this.#o.clock.setTimeout(() => {
      this.#cancelRetry = null;
      if (generation !== this.#generation) return;
      const old = this.#client;
      this.#generation++;
      this.#client = null;
      this.#clientConnection = null;
      old?.end(true, {}, () => {});
      this.#connect();
    }, delay);
  }
}
