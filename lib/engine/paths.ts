/**
 * Where the real engine (llama.cpp's `llama-server`, built by `deno task engine:setup`) lives on
 * disk: the pinned source version, the cache directory and the files inside it.
 *
 * @module
 */

/** The npm package whose bundled llama.cpp source we build (policy: the only allowed source). */
export const NODE_LLAMA_CPP_PACKAGE = "node-llama-cpp";

/** The pinned version of {@linkcode NODE_LLAMA_CPP_PACKAGE}. */
export const NODE_LLAMA_CPP_VERSION = "3.22.1";

/** The llama.cpp commit inside `llama/gitRelease.bundle` of node-llama-cpp 3.22.1. */
export const LLAMA_CPP_COMMIT = "de3ff815ea7d559ee917f063901b8986f038abc6";

/** The name of the versioned cache folder, e.g. `llama.cpp-de3ff81`. */
export const ENGINE_ID = `llama.cpp-${LLAMA_CPP_COMMIT.slice(0, 7)}`;

/** Environment variable that overrides the engine directory (used as it is, no version suffix). */
export const ENGINE_DIR_ENV = "LOCALBENCH_ENGINE_DIR";

/** Reads one environment variable; `undefined` when unset. */
export type EnvReader = (name: string) => string | undefined;

/** Options of {@linkcode engineRoot}. */
export interface EngineRootOptions {
  /** Environment access. @default Deno.env.get (needs --allow-env) */
  env?: EnvReader;
}

/**
 * The engine directory: `$LOCALBENCH_ENGINE_DIR` when set, otherwise
 * `${XDG_CACHE_HOME:-$HOME/.cache}/localbench/engine/<ENGINE_ID>`.
 *
 * @throws {Error} when neither `LOCALBENCH_ENGINE_DIR`, `XDG_CACHE_HOME` nor `HOME` is set
 * @example Overriding the directory
 * ```ts
 * import assert from "node:assert/strict";
 * import { engineRoot } from "./paths.ts";
 * const root = engineRoot({ env: (k) => (k === "LOCALBENCH_ENGINE_DIR" ? "/tmp/eng" : undefined) });
 * assert.equal(root, "/tmp/eng");
 * ```
 */
export function engineRoot(options: EngineRootOptions = {}): string {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const override = env(ENGINE_DIR_ENV);
  if (override) return trimSlash(override);
  const xdg = env("XDG_CACHE_HOME");
  const home = env("HOME");
  const cache = xdg ? trimSlash(xdg) : home ? `${trimSlash(home)}/.cache` : undefined;
  if (!cache) {
    throw new Error(
      `Cannot locate the engine cache: set ${ENGINE_DIR_ENV}, XDG_CACHE_HOME or HOME`,
    );
  }
  return `${cache}/localbench/engine/${ENGINE_ID}`;
}

/** The files and folders inside an engine directory. */
export interface EnginePaths {
  /** The engine directory itself. */
  root: string;
  /** Installed binaries. */
  binDir: string;
  /** The `llama-server` binary. */
  server: string;
  /** The `llama-bench` binary (absent in an engine built before it was a target). */
  bench: string;
  /** The `llama-convert-llama2c-to-ggml` binary (used to generate the models). */
  converter: string;
  /** Generated GGUF models (the router's `--models-dir`). */
  modelsDir: string;
  /** `manifest.json` describing the generated models (llama-server lists only `*.gguf` files). */
  manifest: string;
  /** Vocabulary-only GGUF files copied from the llama.cpp source. */
  vocabDir: string;
  /** The stamp written once the build succeeded. */
  stamp: string;
  /** Scratch space for the package, the source and the build tree (removed after success). */
  workDir: string;
  /** Empty folder given to llama-server as `LLAMA_CACHE` so it lists only our models. */
  llamaCache: string;
  /** Build and conversion logs. */
  logDir: string;
}

/**
 * The layout of an engine directory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { enginePaths } from "./paths.ts";
 * assert.equal(enginePaths("/e").server, "/e/bin/llama-server");
 * ```
 */
export function enginePaths(root: string): EnginePaths {
  const r = trimSlash(root);
  return {
    root: r,
    binDir: `${r}/bin`,
    server: `${r}/bin/llama-server`,
    bench: `${r}/bin/llama-bench`,
    converter: `${r}/bin/llama-convert-llama2c-to-ggml`,
    modelsDir: `${r}/models`,
    manifest: `${r}/models/manifest.json`,
    vocabDir: `${r}/vocab`,
    stamp: `${r}/engine.json`,
    workDir: `${r}/work`,
    llamaCache: `${r}/llama-cache`,
    logDir: `${r}/logs`,
  };
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
