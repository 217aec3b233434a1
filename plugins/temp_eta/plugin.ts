/**
 * The Temperature ETA plugin's descriptor (re-exported by `./mod.ts`, the folder's surface).
 *
 * @module
 */
import type { PluginDescriptor, PluginInstance } from "../../lib/host/mod.ts";
import { ENV_VARS } from "./env.ts";
import { PLUGIN_ID } from "./id.ts";
import { migrateSettings } from "./migrate.ts";
import { connectionOf } from "./mqtt_client.ts";
import { routesOf } from "./api.ts";
import { SETTINGS_VERSION, type TempEtaSettings } from "./schema.ts";
import { type ServiceOptions, TempEtaService } from "./service.ts";
import { brokerTarget, SECRET_SETTINGS, SETTINGS_SCHEMA } from "./settings.ts";

export { type ServiceStatus, TempEtaService } from "./service.ts";
export type { TempEtaSettings } from "./schema.ts";
export { PLUGIN_ID } from "./id.ts";

/** One run of the plugin: its service, routes and lifecycle. */
export interface TempEtaInstance extends PluginInstance {
  service: TempEtaService;
}

/** Builds the descriptor; tests pass an MQTT client factory or backoff timings. */
export function createTempEtaPlugin(
  options: ServiceOptions = {},
): PluginDescriptor<TempEtaSettings, TempEtaInstance> {
  return {
    id: PLUGIN_ID,
    name: "Temperature ETA",
    version: "2.0.0",
    settingsVersion: SETTINGS_VERSION,
    settingsSchema: SETTINGS_SCHEMA,
    migrateSettings,
    restrictedSettings: [...SECRET_SETTINGS],
    ui: { nav: "Temperature", formerPaths: ["/plugins/temperature"], navbar: ["TempEtaNavbar"] },
    envVars: [...ENV_VARS],
    networkHosts: (settings) => settings.mqtt_enabled ? [brokerTarget(settings)] : [],
    readFiles: (settings) => {
      const { caPath } = connectionOf(settings);
      return settings.mqtt_enabled && caPath !== null ? [caPath] : [];
    },
    create(ctx) {
      const service = new TempEtaService(ctx, options);
      return {
        service,
        routes: routesOf(service),
        start: () => service.start(),
        stop: () => service.stop(),
      };
    },
  };
}

/** The descriptor the host loads. */
export const plugin: PluginDescriptor<TempEtaSettings, TempEtaInstance> = createTempEtaPlugin();
