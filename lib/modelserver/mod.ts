/**
 * Model-server backends: one {@linkcode Backend} interface and three implementations (LM Studio
 * REST v1, LM Studio SDK 1.5.0, OpenAI-compatible), the SSE parser, error helpers, the `lms`
 * command wrapper and version helpers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createBackend, isModelUnloaded } from "./mod.ts";
 * const backend = createBackend({ backend: "rest", port: 1234 });
 * assert.ok(backend.kind === "rest" && !isModelUnloaded(new Error("x")));
 * ```
 *
 * @module
 */

export type {
  Backend,
  BackendKind,
  ChatMessage,
  ChatRequest,
  ChatResult,
  ChatStats,
  ClientTimings,
  DownloadOptions,
  DownloadStatus,
  LoadOptions,
  LoadResult,
  ModelCapabilities,
  ModelInfo,
} from "./backend.ts";
export { paramsText, quantizationOfFtype } from "./openai_models.ts";
export { isToolCapable, isVisionCapable, type ServerConfig } from "./backend.ts";
export { type BackendOptions, createBackend } from "./factory.ts";
export {
  authError,
  AuthRefusedError,
  droppedStreamError,
  httpError,
  isAuthError,
  isConnectionRefused,
  isModelUnloaded,
  ModelUnloadedError,
  timeoutError,
  unreachableError,
} from "./errors.ts";
export {
  type EphemeralMcp,
  ephemeralMcp,
  imageDataUrl,
  type RestInputItem,
  toRestInput,
} from "./content.ts";
export {
  LmStudioRestClient,
  type RestChatRequest,
  type RestClientOptions,
} from "./lmstudio_rest.ts";
export type { RestChatResult, RestChatStats, RestModel } from "./lmstudio_rest_types.ts";
export { downloadFromRest, modelsFromRest, statsFromRest } from "./lmstudio_rest_types.ts";
export { LmStudioSdkClient, probeSdkVersion, type SdkClientOptions } from "./lmstudio_sdk.ts";
export { OpenAiClient, type OpenAiClientOptions } from "./openai.ts";
export type { LlamaCppTimings } from "./openai_stream.ts";
export { isDoneEvent, readSse, type SseEvent, SseParser } from "./sse.ts";
export { cacheKey, ResponseCache } from "./response_cache.ts";
export {
  ensureLmsServer,
  type EnsureServerOptions,
  LmsCli,
  type LmsCliOptions,
  type LmsModelEntry,
} from "./lms_cli.ts";
export { denoRunner, type ProcessResult, type ProcessRunner } from "./process.ts";
export { atLeast, compareVersions, parseVersion } from "./version.ts";
export { GgufCursor, GgufType } from "./gguf_header.ts";
export { hostPortOf } from "./http.ts";
export { type ProbeResult, probeServer, wrongServerError } from "./probe.ts";
export type { WaitReporter } from "./timeout.ts";
export { modelsFromSdkEntries } from "./lmstudio_models.ts";
