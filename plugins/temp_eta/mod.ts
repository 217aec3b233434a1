/**
 * The Temperature ETA plugin (`temp_eta`): estimates the time until each heater reaches its target
 * (heating) or falls to its cooling target (cooling), pushes `eta_update` messages, publishes over
 * MQTT, and keeps its settings (version 2) in the host's settings store.
 *
 * @module
 */
import type { PluginContext, PluginDescriptor } from "../../lib/host/plugin.ts";
import { ENV_VARS } from "./env.ts";
import { migrateSettings } from "./migrate.ts";
import { connectionOf } from "./mqtt_client.ts";
import { routesOf } from "./routes.ts";
import { DEFAULTS, SETTINGS_VERSION } from "./schema.ts";
import { type ServiceOptions, TempEtaService } from "./service.ts";
import { brokerTarget, SECRET_SETTINGS, validateSettings } from "./settings.ts";

export { type ServiceStatus, TempEtaService } from "./service.ts";
export type { TempEtaSettings } from "./schema.ts";

/** The plugin id. */
export const PLUGIN_ID = "temp_eta";

/**
 * Builds the descriptor; tests pass an MQTT client factory or backoff timings. One service runs
 * per plugin context (the host passes the same context object to every hook).
 */
export function createTempEtaPlugin(options: ServiceOptions = {}): PluginDescriptor {
  const services = new WeakMap<PluginContext, TempEtaService>();
  const serviceOf = (ctx: PluginContext): TempEtaService => {
    let service = services.get(ctx);
    if (!service) {
      service = new TempEtaService(ctx, options);
      services.set(ctx, service);
    }
    return service;
  };
  return {
    id: PLUGIN_ID,
    name: "Temperature ETA",
    version: "2.0.0",
    settingsVersion: SETTINGS_VERSION,
    settingsDefaults: { ...DEFAULTS },
    validateSettings: (candidate) => ({ ...validateSettings(candidate) }),
    migrateSettings,
    restrictedSettings: [...SECRET_SETTINGS],
    envVars: [...ENV_VARS],
    networkHosts: (settings) =>
      settings.mqtt_enabled === true && typeof settings.mqtt_broker === "string"
        ? [brokerTarget(settings as { mqtt_broker: string; mqtt_port: number })]
        : [],
    readFiles: (settings) => {
      const { caPath } = connectionOf(validateSettings(settings));
      return settings.mqtt_enabled === true && caPath !== null ? [caPath] : [];
    },
    routes: (ctx) => routesOf(serviceOf(ctx)),
    onStartup: (ctx) => serviceOf(ctx).start(),
    onShutdown: async (ctx) => {
      await services.get(ctx)?.stop();
      services.delete(ctx);
    },
  };
}

/** The descriptor the host loads. */
export const plugin: PluginDescriptor = createTempEtaPlugin();
