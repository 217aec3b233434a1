/**
 * The running Temperature ETA plugin of one host: feeds the printer's temperature events into the
 * calculator, computes every `calculation_interval`, cleans the history every `cleanup_interval`,
 * sends `eta_update` (and `eta_alert`) push messages and MQTT publications for the heaters that
 * are due, and follows settings changes (timers, MQTT reconnect, enable/disable). All timers run
 * on the context's clock.
 *
 * @module
 */
import { messageOf } from "../../lib/error.ts";
import { EtaCalculator, type StateChange } from "./calculator.ts";
import { applyEnvOverrides } from "./env.ts";
import { displayText } from "./format.ts";
import { join } from "node:path";
import { MqttPublisher, type MqttPublisherOptions, type MqttStatus } from "./mqtt.ts";
import { MQTT_STATE_FILE } from "./mqtt_store.ts";
import { DEFAULTS, type TempEtaSettings } from "./schema.ts";
import { brokerTarget, validateSettings } from "./settings.ts";
import { mayConnect, type PluginContext, type PrinterEvent } from "../../lib/host/mod.ts";
import { alertOf } from "./alerts.ts";
import { type UiConfig, uiConfigOf } from "./ui_config.ts";
import type { HeaterStatus } from "./status.ts";

/** Test seams of the service. */
export type ServiceOptions = Pick<
  MqttPublisherOptions,
  "factory" | "readTextFile" | "backoffInitialMs" | "backoffMaxMs" | "statePath"
>;

/** A heater's status with its display texts. */
export type HeaterView = HeaterStatus & { display: ReturnType<typeof displayText> };

/** The body of `GET /api/plugin/<id>`. */
export interface ServiceStatus {
  enabled: boolean;
  algorithm: TempEtaSettings["algorithm"];
  time_format: TempEtaSettings["time_format"];
  heaters: HeaterView[];
  mqtt: MqttStatus;
  mqtt_enabled: boolean;
  mqtt_connected: boolean;
  /** Settings changed by `TEMP_ETA_*` environment variables. */
  env_overrides: string[];
  /** What the panel, navbar and sidebar elements need. */
  ui: UiConfig;
}

/** The Temperature ETA runtime bound to one plugin context. */
export class TempEtaService {
  #ctx: PluginContext<TempEtaSettings>;
  #settings: TempEtaSettings;
  #envApplied: string[] = [];
  #calc: EtaCalculator;
  #mqtt: MqttPublisher;
  #stops: Array<() => void> = [];
  #sampling: Array<() => void> = [];
  #started = false;

  constructor(ctx: PluginContext<TempEtaSettings>, options: ServiceOptions = {}) {
    this.#ctx = ctx;
    // The host builds the routes (and so this service) before it loads the stored settings:
    // they are read in start(), which runs after the load.
    this.#settings = validateSettings({ ...DEFAULTS });
    this.#calc = new EtaCalculator(this.#settings);
    this.#mqtt = new MqttPublisher({
      clock: ctx.clock,
      logger: ctx.logger,
      // Under the launcher the CA file is granted by its real path (links resolved).
      readTextFile: async (path) => {
        const granted = ctx.grantedFile?.(path) ?? path;
        if (Deno.permissions.querySync({ name: "read", path: granted }).state !== "granted") {
          throw new Error("the host may not read it (missing, or not a regular file)");
        }
        return await Deno.readTextFile(granted);
      },
      // The outage queue and the retained topics outlive a restart of the host.
      statePath: join(ctx.dataDir, MQTT_STATE_FILE),
      ...options,
    });
  }

  /** The effective settings: the stored ones with the environment overrides applied. */
  get settings(): TempEtaSettings {
    return this.#settings;
  }

  #effective(report: boolean): TempEtaSettings {
    let stored: TempEtaSettings;
    try {
      stored = validateSettings(this.#ctx.settings.get());
    } catch (err) {
      this.#ctx.logger.error(`Invalid stored settings, using defaults: ${messageOf(err)}`);
      stored = validateSettings({ ...DEFAULTS });
    }
    const env = applyEnvOverrides(stored, this.#ctx.env);
    this.#envApplied = env.applied;
    if (report) {
      for (const key of env.applied) this.#ctx.logger.info(`Setting '${key}' set by environment`);
      for (const message of env.rejected) this.#ctx.logger.warn(message);
    }
    return env.settings;
  }

  #debug(message: string): void {
    if (this.#settings.debug_logging) this.#ctx.logger.info(`debug: ${message}`);
  }

  /** Starts sampling and publishing, and follows settings changes. Never waits for MQTT. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#stops.push(this.#ctx.settings.onChange(() => this.#apply(this.#effective(false))));
    this.#apply(this.#effective(true), true);
  }

  /** Stops timers, the printer subscription and MQTT. */
  async stop(): Promise<void> {
    this.#stopSampling();
    for (const stop of this.#stops.splice(0)) stop();
    this.#started = false;
    await this.#mqtt.close();
  }

  #apply(next: TempEtaSettings, first = false): void {
    const previous = this.#settings;
    this.#settings = next;
    this.#calc.configure(next);
    const wanted = next.enabled && next.mqtt_enabled;
    // A broker the host may not reach yet: it is restarting under the wider scope.
    const reachable = mayConnect(brokerTarget(next));
    if (wanted && !reachable) {
      this.#ctx.logger.info(`MQTT waits for the host to be allowed to reach ${brokerTarget(next)}`);
    }
    this.#mqtt.configure({ ...next, mqtt_enabled: wanted && reachable });
    const timersChanged = first || previous.calculation_interval !== next.calculation_interval ||
      previous.cleanup_interval !== next.cleanup_interval || previous.enabled !== next.enabled;
    if (timersChanged) {
      this.#stopSampling();
      if (next.enabled) this.#startSampling();
      else this.#calc.reset();
    }
    if (!first) {
      this.#ctx.push({
        type: "settings_changed",
        enabled: next.enabled,
        algorithm: next.algorithm,
        ui: uiConfigOf(next),
      });
    }
    this.#debug(`settings applied (algorithm ${next.algorithm})`);
  }

  #startSampling(): void {
    const { clock, printer } = this.#ctx;
    const s = this.#settings;
    // The printer's history outlives restarts of the host: the estimates carry on from it.
    const state = printer.snapshot().state;
    for (const { time, temperatures } of printer.history()) {
      this.#onPrinter({ type: "temperatures", snapshot: { state, temperatures, time } });
    }
    this.#onPrinter({ type: "temperatures", snapshot: printer.snapshot() });
    this.#sampling.push(printer.subscribe((event) => this.#onPrinter(event)));
    this.#sampling.push(clock.setInterval(() => this.tick(), s.calculation_interval * 1000));
    this.#sampling.push(clock.setInterval(() => this.#cleanup(), s.cleanup_interval * 1000));
  }

  #stopSampling(): void {
    for (const stop of this.#sampling.splice(0)) stop();
  }

  #onPrinter(event: PrinterEvent): void {
    if (event.type === "state") {
      if (event.state === "OFFLINE" || event.state === "ERROR") this.#calc.reset();
      return;
    }
    if (event.type !== "temperatures") return;
    const t = event.snapshot.time / 1000;
    for (const [heater, reading] of Object.entries(event.snapshot.temperatures)) {
      this.#calc.addReading(heater, reading, t);
    }
  }

  #cleanup(): void {
    const removed = this.#calc.cleanup();
    if (removed > 0) this.#debug(`history cleanup removed ${removed} samples`);
  }

  /** Computes once and publishes the heaters that are due (the calculation timer calls it). */
  tick(): void {
    const { due, changes } = this.#calc.tick(this.#ctx.clock.now());
    for (const status of due) {
      this.#ctx.push({ type: "eta_update", ...this.#view(status) });
      this.#mqtt.publish(status);
    }
    for (const change of changes) this.#onChange(change);
  }

  #onChange(change: StateChange): void {
    this.#debug(`${change.heater}: ${change.previous_state} → ${change.state}`);
    const alert = alertOf(change, this.#settings);
    if (alert) this.#ctx.push({ type: "eta_alert", ...alert });
  }

  #view(status: HeaterStatus): HeaterView {
    return { ...status, display: displayText(status, this.#settings) };
  }

  /** Forgets all histories (command `reset_history`). */
  resetHistory(): void {
    this.#calc.reset();
  }

  /** Reconnects MQTT now (command `reconnect_mqtt`). */
  reconnectMqtt(): void {
    this.#mqtt.reconnect();
  }

  /** The status for `GET /api/plugin/<id>`. */
  status(): ServiceStatus {
    const mqtt = this.#mqtt.status();
    return {
      enabled: this.#settings.enabled,
      algorithm: this.#settings.algorithm,
      time_format: this.#settings.time_format,
      heaters: this.#settings.enabled ? this.#calc.statuses().map((s) => this.#view(s)) : [],
      mqtt,
      mqtt_enabled: mqtt.enabled,
      mqtt_connected: mqtt.connected,
      env_overrides: [...this.#envApplied],
      ui: uiConfigOf(this.#settings),
    };
  }
}
