/**
 * The Temperature ETA plugin (`temp_eta`): estimates the time until each heater reaches its target
 * (heating) or falls to its cooling target (cooling), pushes `eta_update` messages, publishes over
 * MQTT, and keeps its settings (version 2) in the host's settings store.
 *
 * @module
 */
export { createTempEtaPlugin, plugin, PLUGIN_ID, TempEtaService } from "./plugin.ts";
export type { ServiceStatus, TempEtaInstance, TempEtaSettings } from "./plugin.ts";
