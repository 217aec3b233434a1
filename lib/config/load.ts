/**
 * The configuration layers (seed: "Configuration layers"): built-in defaults → project
 * `config/defaults.json` → the user's `defaults.json` → command-line overrides.
 *
 * @module
 */
import * as v from "valibot";
import { readJsonFile } from "./json_file.ts";
import { deepMerge, type JsonObject } from "./merge.ts";
import { CONFIG_SCHEMA } from "./schema.ts";
import type { Config } from "./types.ts";
import { validateLayer } from "./validate.ts";

/** The project configuration file, next to this repository's `config/` folder. */
export const PROJECT_DEFAULTS = new URL("../../config/defaults.json", import.meta.url).pathname;

/** How the messages name the file layers (never by their full path). */
const LAYER_NAMES = [
  "the project configuration (config/defaults.json)",
  "the user configuration (defaults.json)",
];

/** Where each layer came from, for `--print-config` and warnings. */
export interface LayerReport {
  source: string;
  found: boolean;
  unknownKeys: string[];
}

/** The result of loading the file layers. */
export interface LoadedConfig {
  config: Config;
  layers: LayerReport[];
}

/** Options of {@linkcode loadConfig}. */
export interface LoadConfigOptions {
  /** Project file. @default PROJECT_DEFAULTS */
  projectFile?: string;
  /** The user's `defaults.json` (absent file = no layer). */
  userFile?: string | null;
  /** Highest layer (the command line), merged last. */
  overrides?: JsonObject;
}

/**
 * Checks `layer` and merges it over `config` (a `null` keeps the value below): the configuration
 * with one more layer on top, its ports normalised.
 *
 * @throws {UnprocessableError} naming `source` and the key of a value the schema refuses.
 */
export function applyLayer(config: Config, layer: JsonObject, source: string): Config {
  validateLayer(layer, source);
  return v.parse(CONFIG_SCHEMA, deepMerge(config, layer));
}

/**
 * Loads and merges the layers over the built-in defaults (the schema's), normalises the ports
 * and returns one typed object. A malformed or mistyped file throws an `AppError` naming the
 * layer and its file name (and the position or key), never the full path or the content.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  let merged: JsonObject = {};
  const layers: LayerReport[] = [{ source: "built-in defaults", found: true, unknownKeys: [] }];
  const files = [options.projectFile ?? PROJECT_DEFAULTS, options.userFile ?? null];
  for (const [i, file] of files.entries()) {
    if (!file) continue;
    const what = LAYER_NAMES[i]!;
    const layer = await readJsonFile(file, what);
    if (layer === undefined) {
      layers.push({ source: file, found: false, unknownKeys: [] });
      continue;
    }
    const unknownKeys = validateLayer(layer, what);
    merged = deepMerge(merged, layer as JsonObject);
    layers.push({ source: file, found: true, unknownKeys });
  }
  if (options.overrides) {
    validateLayer(options.overrides, "the command line");
    merged = deepMerge(merged, options.overrides);
    layers.push({ source: "command line", found: true, unknownKeys: [] });
  }
  return { config: v.parse(CONFIG_SCHEMA, merged), layers };
}
