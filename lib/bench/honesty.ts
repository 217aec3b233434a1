/**
 * The warnings of a job about options that do not do what they say in this setting: load values
 * the backend cannot set, profiling limits without profiling or without a sensor, parallelism in
 * SDK mode, and a unified K/V cache no backend can set. Each is said once, at the start.
 *
 * @module
 */
import type { RunOptions } from "./options.ts";
import type { BackendKind, Config } from "../config/mod.ts";
import { unsettableRequests } from "./applied.ts";
import type { EventSink, HardwareSample } from "./events.ts";

/** Whether the GPU sensors of the profiling limits exist (known after the first sample). */
export interface SensorState {
  known: boolean;
  temp: boolean;
  power: boolean;
}

/** Records what a sample says about the sensors and warns once about a limit without one. */
export function noteSensors(
  state: SensorState,
  sample: HardwareSample,
  options: RunOptions,
  emit: EventSink,
): void {
  if (state.known) return;
  state.known = true;
  state.temp = sample.temp_c !== null;
  state.power = sample.power_w !== null;
  for (const message of sensorWarnings(options, sample)) {
    emit({ type: "log", level: "warn", message });
  }
}

const BACKEND_NAMES: Record<BackendKind, string> = {
  sdk: "The LM Studio SDK backend",
  rest: "LM Studio's REST v1 API",
  openai: "An OpenAI-compatible server (llama.cpp, vLLM, Ollama)",
};

const given = (options: RunOptions, key: string) => options.given?.includes(key) ?? false;

/** Warnings known before any model is loaded. */
export function optionWarnings(
  config: Config,
  options: RunOptions,
  backend: BackendKind,
): string[] {
  const out: string[] = [];
  const unsettable = unsettableRequests(config, backend);
  if (unsettable.length) {
    out.push(
      `${BACKEND_NAMES[backend]} cannot set ${unsettable.join(", ")}: the server runs with its ` +
        `own values (read back where it reports them); these are marked "not applied" in every ` +
        `report and left out of the cache key`,
    );
  }
  if (!options.enable_profiling) {
    const limits = [
      options.max_temp !== null ? "--max-temp" : null,
      options.max_power !== null ? "--max-power" : null,
      options.disable_gtt && given(options, "disable_gtt") ? "--disable-gtt" : null,
    ].filter((x) => x !== null);
    if (limits.length) {
      out.push(
        `${limits.join(" and ")} do${limits.length === 1 ? "es" : ""} nothing without ` +
          `--enable-profiling (nothing is sampled); add it, or leave ${
            limits.length === 1 ? "it" : "them"
          } out`,
      );
    }
  }
  if (backend === "sdk" && given(options, "n_parallel") && options.n_parallel > 1) {
    out.push(
      "--n-parallel does nothing in SDK mode (one request at a time): use --use-rest-api or " +
        "--backend openai for parallel rounds; it is left out of the cache key",
    );
  }
  if (options.unified_kv_cache) {
    out.push(
      "--unified-kv-cache does nothing here: neither LM Studio's REST v1 load, the SDK 1.5.0 nor " +
        "an OpenAI-compatible API has a setting for it; it is left out of the cache key",
    );
  }
  return out;
}

/** Warnings after the first hardware sample: limits whose sensor this machine does not have. */
export function sensorWarnings(options: RunOptions, sample: HardwareSample | null): string[] {
  const out: string[] = [];
  if (!options.enable_profiling) return out;
  if (options.max_temp !== null && (sample?.temp_c ?? null) === null) {
    out.push("--max-temp does nothing: no GPU temperature sensor was found on this machine");
  }
  if (options.max_power !== null && (sample?.power_w ?? null) === null) {
    out.push("--max-power does nothing: no GPU power sensor was found on this machine");
  }
  return out;
}
