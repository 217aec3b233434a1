/**
 * MQTT publishing of the heaters' ETAs. Each status goes to `{prefix}/{heater}` (the DECISIONS.md
 * payload) and each state change to `{prefix}/{heater}/state_change`, with `mqtt_qos` and
 * `mqtt_retain`. The connection never blocks the host: connecting runs in the background, a lost
 * or refused connection is retried with exponential backoff on the injected clock, and a settings
 * change that touches the connection reconnects at once. The client comes from an injectable
 * factory (npm `mqtt` by default).
 *
 * While the broker is away, messages with QoS ≥ 1 wait in a bounded queue and go out in order
 * when it is back (a message in flight at the loss is sent again: at least once); QoS 0 messages
 * are dropped. Both counts are in the status. The loss is logged once (warning) and the recovery
 * once (with the queued and dropped counts), however many retries and messages lie between.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import { messageOf } from "../../lib/error.ts";
import type { Logger } from "../../lib/log.ts";
import type { TempEtaSettings } from "./schema.ts";
import { type HeaterStatus, mqttPayload } from "./status.ts";
import { clientOptions, connectionOf, mqttClientFactory } from "./mqtt_client.ts";
import type { MqttClientFactory, MqttClientLike, MqttConnection } from "./mqtt_client.ts";
import { type OutboundMessage, OutboundQueue, QUEUE_LIMIT } from "./mqtt_queue.ts";

/** What `GET /api/plugin/<id>` reports of MQTT. */
export interface MqttStatus {
  enabled: boolean;
  connected: boolean;
  broker: string | null;
  last_error: string | null;
  /** Messages acknowledged (QoS ≥ 1) or handed to the socket (QoS 0). */
  published: number;
  /** Messages waiting for the broker to come back (QoS ≥ 1). */
  queued: number;
  /** Messages given up on: QoS 0 while away, or beyond the queue's limit. */
  dropped: number;
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
}

/** Publishes heater statuses to an MQTT broker. */
export class MqttPublisher {
  #o: Required<MqttPublisherOptions>;
  #settings: TempEtaSettings | null = null;
  #connection: MqttConnection | null = null;
  #client: MqttClientLike | null = null;
  #generation = 0;
  #attempt = 0;
  #cancelRetry: (() => void) | null = null;
  #lastError: string | null = null;
  #published = 0;
  #queue = new OutboundQueue();
  #lastState = new Map<string, string>();
  /** Since when (ms) the broker is away: set at the first failure or loss, cleared on connect. */
  #awaySince: number | null = null;
  /** Dropped count when the outage began, for the recovery line. */
  #droppedBefore = 0;
  #everConnected = false;

  constructor(options: MqttPublisherOptions) {
    this.#o = {
      factory: mqttClientFactory,
      readTextFile: (path) => Deno.readTextFile(path),
      backoffInitialMs: 1000,
      backoffMaxMs: 30000,
      ...options,
    };
  }

  /** Applies settings: connects, disconnects, or reconnects when a connection field changed. */
  configure(settings: TempEtaSettings): void {
    this.#settings = settings;
    const next = settings.mqtt_enabled ? connectionOf(settings) : null;
    if (JSON.stringify(next) === JSON.stringify(this.#connection)) return;
    this.#connection = next;
    this.#attempt = 0;
    this.#lastError = null;
    this.#awaySince = null;
    this.#everConnected = false;
    this.#queue.discard();
    this.#drop();
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
    if (!client?.connected) {
      this.#queue.hold(m);
      return;
    }
    client.publish(m.topic, m.payload, { qos: m.qos, retain: m.retain }, (err?: Error) => {
      if (!err) {
        this.#published++;
        return;
      }
      this.#lastError = messageOf(err);
      // A QoS ≥ 1 message the broker never acknowledged goes out again after the reconnect.
      if (m.qos > 0 && this.#connection) this.#queue.retry(m);
    });
  }

  /** The connection state for the status route. */
  status(): MqttStatus {
    const c = this.#connection;
    return {
      enabled: c !== null,
      connected: c !== null && this.#client?.connected === true,
      broker: c ? c.url : null,
      last_error: this.#lastError,
      published: this.#published,
      queued: this.#queue.size,
      dropped: this.#queue.dropped,
    };
  }

  /** Drops the connection and any pending retry, then reconnects (when enabled). */
  reconnect(): void {
    this.#attempt = 0;
    this.#drop();
    if (this.#connection) this.#connect();
  }

  /** Disconnects and stops retrying. */
  close(): Promise<void> {
    this.#connection = null;
    return this.#drop();
  }

  #drop(): Promise<void> {
    this.#generation++;
    this.#cancelRetry?.();
    this.#cancelRetry = null;
    const client = this.#client;
    this.#client = null;
    if (!client) return Promise.resolve();
    return new Promise((resolve) => client.end(true, {}, () => resolve()));
  }

  #connect(): void {
    const generation = this.#generation;
    const connection = this.#connection!;
    const ca = connection.caPath === null
      ? Promise.resolve(connection.caText)
      : this.#o.readTextFile(connection.caPath);
    ca.then((caText) => {
      if (generation !== this.#generation) return;
      const client = this.#o.factory(connection.url, clientOptions(connection, caText));
      this.#client = client;
      client.on("connect", () => {
        if (generation !== this.#generation) return;
        this.#attempt = 0;
        this.#lastError = null;
        this.#onConnected(connection.url);
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

  #onConnected(url: string): void {
    const queued = this.#queue.drain();
    for (const m of queued) this.#send(m);
    if (this.#awaySince === null) {
      this.#o.logger.info(`MQTT connected to ${url}`);
    } else {
      const seconds = Math.round((this.#o.clock.now() - this.#awaySince) / 1000);
      const dropped = this.#queue.dropped - this.#droppedBefore;
      this.#o.logger.info(
        `MQTT connection to ${url} ${this.#everConnected ? "restored" : "established"} after ` +
          `${seconds} s; ${queued.length} queued messages sent, ${dropped} dropped`,
      );
    }
    this.#awaySince = null;
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
      old?.end(true, {}, () => {});
      this.#connect();
    }, delay);
  }
}
