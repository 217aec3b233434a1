/**
 * A real mosquitto broker for the MQTT tests: started on a free loopback port in a temp dir,
 * optionally with a password file and a TLS listener (certificates generated with openssl), and
 * stopped by its process handle (never by name). Also a small subscriber and a bounded wait.
 *
 * @module
 */
import { join } from "node:path";
import mqtt from "mqtt";
import { makeCerts } from "../../_certs.ts";
import { systemProgram, waitFor } from "../../_helpers.ts";
import { findFreePort } from "../../../lib/net.ts";

/** The broker program, found in /usr/sbin even when PATH lacks it. */
const MOSQUITTO = systemProgram("mosquitto");

/** A running broker. */
export interface Broker {
  port: number;
  dir: string;
  /** The CA certificate file when TLS is on. */
  caFile?: string;
  /** Stops the broker process (keeps the folder, so it can be started again). */
  stop(): Promise<void>;
  /** Starts the broker again on the same port. */
  restart(): Promise<void>;
  /** Stops the broker and removes its folder. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options of {@linkcode startMosquitto}. */
export interface BrokerOptions {
  /** Keep sessions and their queued messages across a restart (saved on stop). */
  persistence?: boolean;
  auth?: { username: string; password: string };
  tls?: boolean;
}

async function run(cmd: string, args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} failed: ${new TextDecoder().decode(out.stderr)}`);
}

async function portOpen(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/** Starts mosquitto on a free loopback port. */
export async function startMosquitto(options: BrokerOptions = {}): Promise<Broker> {
  const dir = await Deno.makeTempDir({ prefix: "temp_eta_mqtt_" });
  const port = await findFreePort();
  const lines = [
    `listener ${port} 127.0.0.1`,
    ...(options.persistence
      ? ["persistence true", `persistence_location ${dir}/`]
      : ["persistence false"]),
    `log_dest file ${join(dir, "mosquitto.log")}`,
    "log_type all",
    "user root",
  ];
  if (options.auth) {
    const file = join(dir, "passwd");
    await run(
      "mosquitto_passwd",
      ["-b", "-c", file, options.auth.username, options.auth.password],
      dir,
    );
    lines.push("allow_anonymous false", `password_file ${file}`);
  } else lines.push("allow_anonymous true");
  if (options.tls) {
    await makeCerts(dir);
    lines.push(`cafile ${join(dir, "ca.crt")}`, `certfile ${join(dir, "server.crt")}`);
    lines.push(`keyfile ${join(dir, "server.key")}`);
  }
  const conf = join(dir, "mosquitto.conf");
  await Deno.writeTextFile(conf, lines.join("\n") + "\n");

  let child: Deno.ChildProcess | null = null;
  const start = async () => {
    child = new Deno.Command(MOSQUITTO, { args: ["-c", conf], stdout: "null", stderr: "null" })
      .spawn();
    await waitFor(() => portOpen(port), { what: `mosquitto on ${port}`, intervalMs: 30 });
  };
  const stop = async () => {
    const c = child as Deno.ChildProcess | null;
    child = null;
    if (!c) return;
    c.kill("SIGTERM");
    await c.status;
  };
  await start();
  return {
    port,
    dir,
    caFile: options.tls ? join(dir, "ca.crt") : undefined,
    stop,
    restart: start,
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** One received message. */
export interface Received {
  topic: string;
  /** The JSON payload; empty for `online`, `offline` and an empty (clearing) message. */
  payload: Record<string, unknown>;
  /** The payload as received. */
  text: string;
  qos: number;
  retain: boolean;
}

/** A subscriber's messages; close it with `await using`. */
export interface Subscription {
  messages: Received[];
  /** The messages but those of the availability topic `…/status` and empty (clearing) ones. */
  readonly etas: Received[];
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * The retained messages a new subscriber to `topic` gets, as `[topic, payload]`: a marker
 * published once the subscription stands tells when they have all arrived.
 */
export async function retainedOn(url: string, topic: string): Promise<string[][]> {
  const marker = `marker/${crypto.randomUUID()}`;
  await using sub = await subscribe(url, [topic, marker]);
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
  await client.publishAsync(marker, "", { qos: 1 });
  await client.endAsync();
  await waitFor(() => sub.messages.some((m) => m.topic === marker), "the marker");
  return sub.messages.filter((m) => m.retain).map((m) => [m.topic, m.text]);
}

/**
 * Subscribes to `topic` (QoS 2) and collects messages; close it with `await using`. The handler is
 * in place before the connection is, so a persistent session's stored messages (`clean: false`),
 * which arrive right after it, are collected too.
 */
export async function subscribe(
  url: string,
  topic: string | string[],
  options: mqtt.IClientOptions = {},
): Promise<Subscription> {
  const client = mqtt.connect(url, { reconnectPeriod: 0, ...options });
  const messages: Received[] = [];
  client.on("message", (t, payload, packet) => {
    const text = payload.toString();
    const json = text.startsWith("{") ? JSON.parse(text) : {};
    messages.push({ topic: t, payload: json, text, qos: packet.qos, retain: packet.retain });
  });
  await new Promise<void>((resolve, reject) => {
    client.once("connect", () => resolve());
    client.once("error", reject);
  });
  await client.subscribeAsync(topic, { qos: 2 });
  return {
    messages,
    get etas() {
      return messages.filter((m) => !m.topic.endsWith("/status") && m.text !== "");
    },
    async [Symbol.asyncDispose]() {
      await client.endAsync(true);
    },
  };
}
