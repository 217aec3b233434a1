/**
 * Locates the engine built by `deno task engine:setup`: the `llama-server` binary, the generated
 * models and their manifest. Synchronous, so a test file can decide at load time whether to run.
 *
 * @module
 */

import { isFileSync } from "../fs.ts";
import { SetupError } from "../error.ts";
import { type EngineManifest, parseManifest } from "./manifest.ts";
import { type EnginePaths, enginePaths, engineRoot, type EnvReader } from "./paths.ts";
import { type EngineStamp, readStampSync } from "./stamp.ts";

/** A built engine, ready to start. */
export interface EngineInfo {
  /** All paths of the engine directory. */
  paths: EnginePaths;
  /** The `llama-server` binary. */
  server: string;
  /** The folder of generated GGUF models (router `--models-dir`). */
  modelsDir: string;
  /** The generated models. */
  manifest: EngineManifest;
  /** What was built. */
  stamp: EngineStamp;
}

/** Options of {@linkcode findEngine}. */
export interface FindEngineOptions {
  /** Engine directory. @default engineRoot() */
  root?: string;
  /** Environment access for the default root. @default Deno.env.get */
  env?: EnvReader;
}

/** The command that builds the engine. */
export const SETUP_COMMAND = "deno task engine:setup";

/**
 * Returns the built engine, or `null` when any piece is missing (see {@linkcode explainMissingEngine}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findEngine } from "./find.ts";
 * const engine = findEngine({ root: "/nonexistent" });
 * assert.equal(engine, null);
 * ```
 */
export function findEngine(options: FindEngineOptions = {}): EngineInfo | null {
  return inspect(options).engine;
}

/**
 * Says what is missing, ending with the command to run; `null` when the engine is complete.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainMissingEngine } from "./find.ts";
 * assert.ok(explainMissingEngine({ root: "/nonexistent" })!.includes("engine:setup"));
 * ```
 */
export function explainMissingEngine(options: FindEngineOptions = {}): string | null {
  return inspect(options).problem;
}

/**
 * Like {@linkcode findEngine} but throws when the engine is missing.
 *
 * @throws {SetupError} `engine_missing`, with the reason and the setup command
 */
export function requireEngine(options: FindEngineOptions = {}): EngineInfo {
  const { engine, problem } = inspect(options);
  if (engine) return engine;
  throw new SetupError(problem ?? "Cannot find the engine", {
    code: "engine_missing",
  });
}

function inspect(
  options: FindEngineOptions,
): { engine: EngineInfo | null; problem: string | null } {
  const root = options.root ?? engineRoot(options.env ? { env: options.env } : {});
  const paths = enginePaths(root);
  const missing = (what: string) => ({
    engine: null,
    problem: `Cannot find the llama.cpp engine: ${what}; run \`${SETUP_COMMAND}\``,
  });
  const stamp = readStampSync(paths.stamp);
  if (!stamp) return missing(`no build stamp at '${paths.stamp}'`);
  if (!isExecutable(paths.server)) return missing(`no executable '${paths.server}'`);
  let manifest: EngineManifest;
  try {
    manifest = parseManifest(JSON.parse(Deno.readTextFileSync(paths.manifest)));
  } catch (err) {
    if (
      err instanceof Deno.errors.NotFound || err instanceof SyntaxError || err instanceof TypeError
    ) {
      return missing(`no valid model manifest at '${paths.manifest}'`);
    }
    throw err;
  }
  for (const model of manifest.models) {
    const file = `${paths.modelsDir}/${model.file}`;
    if (!isFileSync(file)) return missing(`model file '${file}' is missing`);
  }
  if (manifest.models.length === 0) return missing("no models were generated");
  const engine = { paths, server: paths.server, modelsDir: paths.modelsDir, manifest, stamp };
  return { engine, problem: null };
}

function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}
