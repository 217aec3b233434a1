/**
 * MQTT publishing of the heaters' ETAs. Each status goes to `{prefix}/{heater}` (the DECISIONS.md
 * payload) and each state change to `{prefix}/{heater}/state_change`, with `mqtt_qos` and
 * `mqtt_retain`. The connection never blocks the host: connecting runs in the background, a
 * message published while disconnected is dropped (and counted), a lost or refused connection is
 * retried with exponential backoff on the injected clock, and a settings change that touches the
 * connection reconnects at once. The client comes from an injectable factory (npm `mqtt` by default).
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

/** What `GET /api/plugin/temp_eta` reports of MQTT. */
export interface MqttStatus {
  enabled: boolean;
  connected: boolean;
  broker: string | null;
  last_error: string | null;
  published: number;
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
  #dropped = 0;
  #lastState = new Map<string, string>();

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
    this.#drop();
    if (next) this.#connect();
  }

  /** Publishes a heater's status (and its state change); dropped while not connected. */
  publish(status: HeaterStatus): void {
    const s = this.#settings;
    if (!s?.mqtt_enabled || !this.#connection) return;
    const client = this.#client;
    if (!client?.connected) {
      this.#dropped++;
      return;
    }
    const options = { qos: s.mqtt_qos, retain: s.mqtt_retain };
    const base = `${s.mqtt_topic_prefix}/${status.heater}`;
    const done = (err?: Error) => {
      if (err) this.#lastError = messageOf(err);
      else this.#published++;
    };
    client.publish(base, JSON.stringify(mqttPayload(status)), options, done);
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
      client.publish(`${base}/state_change`, JSON.stringify(change), options, done);
    }
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
      dropped: this.#dropped,
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
    const { logger } = this.#o;
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
        logger.info(`MQTT connected to ${connection.url}`);
      });
      client.on("error", (err: Error) => {
        if (generation === this.#generation) this.#lastError = messageOf(err);
      });
      client.on("close", () => this.#scheduleRetry(generation));
    }).catch((err) => {
      this.#lastError = `Cannot read 'mqtt_ca_cert': ${messageOf(err)}`;
      this.#scheduleRetry(generation);
    });
  }

  #scheduleRetry(generation: number): void {
    if (generation !== this.#generation || this.#cancelRetry || !this.#connection) return;
    const delay = Math.min(this.#o.backoffMaxMs, this.#o.backoffInitialMs * 2 ** this.#attempt);
    this.#attempt++;
    this.#o.logger.debug(`MQTT reconnect in ${delay} ms (${this.#lastError ?? "closed"})`);
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
