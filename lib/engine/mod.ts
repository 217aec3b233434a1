/**
 * The real engine for the demo and the end-to-end tests: llama.cpp's `llama-server`, built from the
 * source bundled in the npm package node-llama-cpp by `deno task engine:setup`, with tiny
 * random-weight GGUF models generated beside it.
 *
 * - {@linkcode findEngine} / {@linkcode explainMissingEngine} / {@linkcode requireEngine}: locate it.
 * - {@linkcode startLlamaServer}: run it in router mode on loopback; `stop()` ends every child too.
 * - {@linkcode listRouterModels}, {@linkcode loadRouterModel}, {@linkcode unloadRouterModel}: the
 *   router's model routes.
 *
 * @example Start, load, stop
 * ```ts ignore
 * import { findEngine, loadRouterModel, startLlamaServer } from "./mod.ts";
 * const engine = findEngine();
 * if (engine) {
 *   await using server = await startLlamaServer({ modelsDir: engine.modelsDir });
 *   await loadRouterModel(server.url, engine.manifest.models[0]!.name);
 * }
 * ```
 *
 * @module
 */

export {
  type EngineInfo,
  explainMissingEngine,
  findEngine,
  type FindEngineOptions,
  requireEngine,
  SETUP_COMMAND,
} from "./find.ts";
export {
  type EngineManifest,
  MANIFEST_VERSION,
  type ManifestModel,
  parseManifest,
} from "./manifest.ts";
export {
  ENGINE_DIR_ENV,
  ENGINE_ID,
  type EnginePaths,
  enginePaths,
  engineRoot,
  LLAMA_CPP_COMMIT,
  NODE_LLAMA_CPP_PACKAGE,
  NODE_LLAMA_CPP_VERSION,
} from "./paths.ts";
export {
  listRouterModels,
  loadRouterModel,
  type RouterModel,
  type RouterOptions,
  unloadRouterModel,
  waitForModelStatus,
} from "./router.ts";
export {
  type LlamaServer,
  type SpawnFn,
  startLlamaServer,
  type StartLlamaServerOptions,
} from "./server.ts";
export { type EngineStamp, readStampSync } from "./stamp.ts";
export {
  ggufParamCount,
  MODEL_CONTEXT_LENGTH,
  type ModelSpec,
  specsFingerprint,
  TINY_MODELS,
  VOCAB_FILE,
} from "./model_specs.ts";
export { drainOutput } from "./output_tail.ts";
export { isAlive } from "./processes.ts";
export { writeLlama2cCheckpoint } from "./llama2c.ts";
export { patchGgufU32 } from "./gguf_meta.ts";
export { findOnPath } from "./which.ts";
export { createRandom, type Random } from "./prng.ts";
