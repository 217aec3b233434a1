/**
 * Fakes for the Temperature ETA tests: a manual clock, a printer that emits the samples a test
 * gives it, an in-memory settings access validating through the plugin, a plugin context that
 * captures push messages, and a scriptable MQTT client.
 *
 * @module
 */
import { createLogger } from "../../../lib/log.ts";
import type {
  HeaterReading,
  PluginContext,
  PrinterAccess,
  PrinterEvent,
  PrinterSnapshot,
  Settings,
  TemperatureSample,
} from "../../../lib/host/plugin.ts";
import type { MqttClientLike, MqttConnectOptions } from "../../../plugins/temp_eta/mqtt_client.ts";
import { plugin } from "../../../plugins/temp_eta/mod.ts";
import { MemorySettings } from "../../_memory_settings.ts";

import { ManualClock } from "../../_fake_clock.ts";
import type { TempEtaSettings } from "../../../plugins/temp_eta/schema.ts";

export { ManualClock };

/** A printer whose readings the test sets; `emit` sends a `temperatures` event. */
export class FakePrinter implements PrinterAccess {
  temperatures: Record<string, HeaterReading> = {};
  time = 1_700_000_000_000;
  listeners = new Set<(e: PrinterEvent) => void>();

  snapshot(): PrinterSnapshot {
    return {
      state: "OPERATIONAL",
      temperatures: structuredClone(this.temperatures),
      time: this.time,
    };
  }

  history(): TemperatureSample[] {
    return [];
  }

  subscribe(listener: (e: PrinterEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sets readings at printer time `time` (ms) and emits them. */
  emit(time: number, temperatures: Record<string, HeaterReading>): void {
    this.time = time;
    this.temperatures = { ...this.temperatures, ...temperatures };
    for (const l of this.listeners) l({ type: "temperatures", snapshot: this.snapshot() });
  }
}

/** A plugin context of fakes with the captured push messages. */
export interface FakeContext {
  ctx: PluginContext<TempEtaSettings>;
  clock: ManualClock;
  printer: FakePrinter;
  settings: MemorySettings<TempEtaSettings>;
  pushes: Record<string, unknown>[];
  logs: string[];
}

/** Builds a context of fakes; `settings` are the initial stored values. */
export function fakeContext(
  settings: Settings = {},
  env: Record<string, string> = {},
): FakeContext {
  const clock = new ManualClock();
  const printer = new FakePrinter();
  const store = new MemorySettings(plugin, settings);
  const pushes: Record<string, unknown>[] = [];
  const logs: string[] = [];
  const ctx: PluginContext<TempEtaSettings> = {
    id: "temp_eta",
    logger: createLogger("test.temp_eta", { level: "debug", sink: (_l, line) => logs.push(line) }),
    clock,
    dataDir: "/nonexistent",
    logDir: "/nonexistent",
    settings: store,
    printer,
    push: (data) => pushes.push(structuredClone(data)),
    env,
  };
  return { ctx, clock, printer, settings: store, pushes, logs };
}

/** One published message of a fake MQTT client. */
export interface Published {
  topic: string;
  /** The JSON payload (empty for the `online`/`offline` and clearing messages). */
  payload: Record<string, unknown>;
  /** The payload as sent. */
  raw: string;
  qos: number;
  retain: boolean;
}

/** A scriptable MQTT client: the test decides when it connects and closes. */
export class FakeMqttClient implements MqttClientLike {
  connected = false;
  ended = false;
  /** Whether `end` was asked to disconnect cleanly (not forced). */
  endedCleanly = false;
  published: Published[] = [];
  #handlers = new Map<string, Array<(arg?: unknown) => void>>();

  constructor(readonly url: string, readonly options: MqttConnectOptions) {}

  on(event: string, listener: (err: Error) => void): unknown {
    const list = this.#handlers.get(event) ?? [];
    list.push(listener as (arg?: unknown) => void);
    this.#handlers.set(event, list);
    return this;
  }

  #fire(event: string, arg?: unknown): void {
    for (const h of this.#handlers.get(event) ?? []) h(arg);
  }

  /** Simulates a successful connection. */
  acceptConnection(): void {
    this.connected = true;
    this.#fire("connect");
  }

  /** Simulates a refused connection or a dropped one. */
  fail(message = "connect ECONNREFUSED"): void {
    this.connected = false;
    this.#fire("error", new Error(message));
    this.#fire("close");
  }

  /** The error the next publish reports instead of an acknowledgement (once). */
  failNextPublish: Error | null = null;
  /** While true, publications are recorded but never acknowledged (a silent broker). */
  holdAcks = false;

  publish(
    topic: string,
    message: string,
    options: { qos: 0 | 1 | 2; retain: boolean },
    callback: (err?: Error) => void,
  ): unknown {
    const err = this.failNextPublish;
    this.failNextPublish = null;
    if (err) {
      callback(err);
      return this;
    }
    const payload = message.startsWith("{") ? JSON.parse(message) : {};
    this.published.push({ topic, payload, raw: message, ...options });
    if (!this.holdAcks) callback();
    return this;
  }

  end(force: boolean, _options: Record<string, never>, callback: () => void): unknown {
    this.endedCleanly = !force;
    this.ended = true;
    this.connected = false;
    callback();
    return this;
  }
}

/** A factory recording every client it creates. */
export function fakeFactory(): {
  clients: FakeMqttClient[];
  factory: (url: string, options: MqttConnectOptions) => FakeMqttClient;
} {
  const clients: FakeMqttClient[] = [];
  return {
    clients,
    factory: (url, options) => {
      const client = new FakeMqttClient(url, options);
      clients.push(client);
      return client;
    },
  };
}

/**
 * Lets pending promise callbacks run (the publisher reads the CA and waits for the previous
 * client's clean disconnect before connecting): a macrotask runs after every microtask.
 */
export async function flush(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
}
