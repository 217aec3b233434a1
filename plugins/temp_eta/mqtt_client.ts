/**
 * The MQTT client seam: the small client interface the publisher uses, the default factory over
 * npm `mqtt`, and the connection parameters derived from the settings (URL, credentials, TLS,
 * keepalive, and the last will: `offline`, retained, on `{prefix}/status`, which the broker
 * publishes when the connection dies without a clean disconnect). Automatic reconnects of the
 * library are off; the publisher owns the backoff.
 *
 * @module
 */
import mqtt from "mqtt";
import { PLUGIN_ID } from "./id.ts";
import type { TempEtaSettings } from "./schema.ts";
import { statusTopic } from "./mqtt_retained.ts";
import { urlHost } from "../../lib/net.ts";

/** The part of an MQTT client the publisher uses (npm `mqtt`'s `MqttClient` fits it). */
export interface MqttClientLike {
  readonly connected: boolean;
  on(event: "connect" | "close", listener: () => void): unknown;
  on(event: "error", listener: (err: Error) => void): unknown;
  publish(
    topic: string,
    message: string,
    options: { qos: 0 | 1 | 2; retain: boolean },
    callback: (err?: Error) => void,
  ): unknown;
  end(force: boolean, options: Record<string, never>, callback: () => void): unknown;
}

/** Options handed to the client factory. */
export interface MqttConnectOptions {
  clientId: string;
  keepalive: number;
  /** 0: the library never reconnects by itself. */
  reconnectPeriod: 0;
  connectTimeout: number;
  username?: string;
  password?: string;
  ca?: string;
  rejectUnauthorized?: boolean;
  /** What the broker publishes when the connection dies without a clean disconnect. */
  will: { topic: string; payload: string; qos: 1; retain: true };
}

/** The payloads of the availability topic `{prefix}/status`. */
export const ONLINE = "online";
/** The last will's payload, also published on a clean shutdown. */
export const OFFLINE = "offline";

/** Creates a client and starts connecting (must not block). */
export type MqttClientFactory = (url: string, options: MqttConnectOptions) => MqttClientLike;

/** The default factory: npm `mqtt`. */
export const mqttClientFactory: MqttClientFactory = (url, options) =>
  mqtt.connect(url, options) as unknown as MqttClientLike;

/** Connection parameters; two equal values need no reconnect. */
export interface MqttConnection {
  url: string;
  username: string;
  password: string;
  tls: boolean;
  insecure: boolean;
  /** A CA file path, or null when none is set or the setting holds PEM text. */
  caPath: string | null;
  /** PEM text given directly in the setting. */
  caText: string | undefined;
  keepalive: number;
  /** The topic prefix: the last will's topic `{prefix}/status` is fixed for a connection. */
  prefix: string;
}

/** The connection parameters of the settings. */
export function connectionOf(s: TempEtaSettings): MqttConnection {
  const ca = s.mqtt_ca_cert;
  const pem = ca.startsWith("-----BEGIN");
  return {
    url: `${s.mqtt_tls_enabled ? "mqtts" : "mqtt"}://${urlHost(s.mqtt_broker)}:${s.mqtt_port}`,
    username: s.mqtt_username,
    password: s.mqtt_password,
    tls: s.mqtt_tls_enabled,
    insecure: s.mqtt_tls_insecure,
    caPath: s.mqtt_tls_enabled && ca !== "" && !pem ? ca : null,
    caText: s.mqtt_tls_enabled && pem ? ca : undefined,
    keepalive: s.mqtt_keepalive,
    prefix: s.mqtt_topic_prefix,
  };
}

/** The client options of a connection (a fresh client id each time). */
export function clientOptions(c: MqttConnection, caText: string | undefined): MqttConnectOptions {
  const options: MqttConnectOptions = {
    clientId: `localbench_${PLUGIN_ID}_${crypto.randomUUID().slice(0, 8)}`,
    keepalive: c.keepalive,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    will: { topic: statusTopic(c.prefix), payload: OFFLINE, qos: 1, retain: true },
  };
  if (c.username !== "") options.username = c.username;
  if (c.password !== "") options.password = c.password;
  if (c.tls) {
    options.rejectUnauthorized = !c.insecure;
    if (caText !== undefined) options.ca = caText;
  }
  return options;
}

/**
 * Ends a client. With the status `topic` of a connected client it first publishes `offline` there
 * (retained, QoS 1) and then disconnects cleanly, so the broker discards the will; when `within`
 * gives up waiting for the acknowledgement the socket is dropped instead, and the will says
 * `offline`. Without a topic, or disconnected, the socket is just dropped.
 */
export async function disconnect(
  client: MqttClientLike,
  topic: string | null,
  within: <T>(p: Promise<T>) => Promise<T | undefined>,
): Promise<void> {
  const end = (force: boolean) => new Promise<void>((r) => client.end(force, {}, () => r()));
  if (topic === null || !client.connected) return await end(true);
  const sent = await within(
    new Promise<boolean>((resolve) =>
      client.publish(topic, OFFLINE, { qos: 1, retain: true }, (err) => resolve(!err))
    ),
  );
  if (sent !== true) return await end(true);
  await within(end(false));
}
