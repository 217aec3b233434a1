/**
 * The actions that print or write something and exit: `--list-presets`, `--print-config`,
 * `--list-cache`, `--export-cache`; each as text, or with `--json` as one JSON document.
 *
 * @module
 */
import { join } from "node:path";
import {
  type Config,
  type LayerReport,
  listPresets,
  outputTarget,
  type Paths,
} from "../config/mod.ts";
import { writeNamedOutput } from "../fs.ts";
import { cacheListing, cacheListingJson, exportCache, openStore } from "../store/mod.ts";
import { VERSION } from "../version.ts";

/**
 * `--list-presets`: as lines (`name  [readonly|user]  key=value ...`), or with `json` one document
 * `{presets: [{name, readonly, values}], broken: [{name, error}], ignored: [file]}`.
 */
export async function listPresetsText(paths: Paths, json = false): Promise<string> {
  const { presets, ignored, broken } = await listPresets(paths.presetsDir);
  if (json) return JSON.stringify({ presets, broken, ignored }, null, 2);
  const width = Math.max(...presets.map((p) => p.name.length));
  const lines = presets.map((p) => {
    const values = Object.entries(p.values).map(([k, v]) => `${k}=${v}`).join(" ");
    return `${p.name.padEnd(width)}  [${p.readonly ? "readonly" : "user"}]${
      values ? `  ${values}` : ""
    }`;
  });
  for (const b of broken) lines.push(`(unusable: ${b.error})`);
  for (const file of ignored) {
    lines.push(`(ignored ${join(paths.presetsDir, file)}: reserved or invalid name)`);
  }
  return lines.join("\n");
}

/** The configuration as JSON with the API token masked. */
export function configJson(config: Config): string {
  const masked = structuredClone(config);
  if (masked.modelserver.api_token) masked.modelserver.api_token = "***";
  return JSON.stringify(masked, null, 2);
}

/** One line naming the layers in priority order. */
export function layersText(layers: LayerReport[]): string {
  return "configuration layers (lowest first): " +
    layers.map((l) => `${l.source}${l.found ? "" : " (not found)"}`).join(" → ");
}

/** Writes every cached result (with its runs) as JSON; returns the path and the count. */
export async function exportCacheFile(
  paths: Paths,
  file: string,
): Promise<{ path: string; count: number }> {
  const target = outputTarget(paths, file);
  const store = await openStore(paths);
  try {
    const data = exportCache(store, { tool: "localbench", version: VERSION });
    await writeNamedOutput(
      target,
      JSON.stringify(data, null, 2) + "\n",
      "the export",
      "--export-cache",
    );
    return { path: target, count: Number(data.count) };
  } finally {
    store.close();
  }
}

/** The `--list-cache` text, or with `json` the document of {@linkcode cacheListingJson}. */
export async function listCacheText(paths: Paths, json = false): Promise<string> {
  const store = await openStore(paths);
  try {
    return json ? JSON.stringify(cacheListingJson(store), null, 2) : cacheListing(store);
  } finally {
    store.close();
  }
}
