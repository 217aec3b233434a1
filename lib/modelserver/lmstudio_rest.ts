/**
 * LM Studio native REST API v1 client (LM Studio ≥ 0.4.0): models, load, unload, download with
 * status polling, and chats streamed as server-sent events; stateful chaining and the opt-in
 * response cache.
 *
 * Load options REST v1 cannot set (documented API): GPU offload ratio (only on/off through
 * `offload_kv_cache_to_gpu`), threads, rope frequency, mmap, mlock, KV cache quantization,
 * parallel slots and unified KV cache. Use the SDK backend for those.
 *
 * @module
 */

import { sleep } from "../clock.ts";
import { UpstreamError, UpstreamTimeoutError } from "../error.ts";
import type {
  Backend,
  ChatRequest,
  ChatResult,
  DownloadOptions,
  DownloadStatus,
  LoadOptions,
  LoadResult,
  ModelInfo,
  ServerConfig,
} from "./backend.ts";
import { type EphemeralMcp, toRestInput } from "./content.ts";
import { secondsText } from "./errors.ts";
import { HttpTransport, type HttpTransportOptions } from "./http.ts";
import { consumeRestChat } from "./lmstudio_rest_stream.ts";
import type { RestDownloadStatus, RestLoadResponse, RestModel } from "./lmstudio_rest_types.ts";
import { downloadFromRest, modelsFromRest } from "./lmstudio_rest_types.ts";
import { cacheKey, ResponseCache } from "./response_cache.ts";
import { readSse } from "./sse.ts";

/** Options of {@linkcode LmStudioRestClient}. */
export interface RestClientOptions extends HttpTransportOptions {
  /** Chain chats with `previous_response_id`. @default false */
  stateful?: boolean;
  /** Keep an in-memory response cache. @default false */
  cache?: boolean;
  /** Finds the server version (REST v1 has no version route). @default () => null */
  versionProbe?: () => Promise<string | null>;
}

/** REST-only chat options on top of {@linkcode ChatRequest}. */
export interface RestChatRequest extends ChatRequest {
  /** `data:` URLs of images (vision models). */
  images?: string[];
  /** MCP servers or plugin ids (tool-use models); bypasses the cache. */
  integrations?: (EphemeralMcp | string | Record<string, unknown>)[];
  /** Reasoning effort. */
  reasoning?: "off" | "low" | "medium" | "high" | "on";
  /** Context length for a JIT load. */
  context_length?: number;
}

const TERMINAL = new Set(["completed", "failed", "already_downloaded"]);

/** The REST v1 backend. */
export class LmStudioRestClient implements Backend {
  readonly kind = "rest" as const;
  readonly #http: HttpTransport;
  readonly #cache: ResponseCache | null;
  readonly #versionProbe: () => Promise<string | null>;
  #stateful: boolean;
  #lastResponseId: string | null = null;
  /** `load_config` echoed by each load, by instance id (the values that applied). */
  readonly #loadConfigs = new Map<string, Record<string, unknown>>();

  constructor(options: RestClientOptions) {
    this.#http = new HttpTransport(options);
    this.#stateful = options.stateful ?? false;
    this.#cache = options.cache ? new ResponseCache() : null;
    this.#versionProbe = options.versionProbe ?? (() => Promise.resolve(null));
  }

  describe(): string {
    return `LM Studio REST at ${this.#http.base}`;
  }

  version(): Promise<string | null> {
    return this.#versionProbe();
  }

  /** Whether chats are chained with `previous_response_id`. */
  get stateful(): boolean {
    return this.#stateful;
  }

  /** Turns stateful mode on or off (turning it off also resets the chain). */
  setStateful(on: boolean): void {
    this.#stateful = on;
    if (!on) this.#lastResponseId = null;
  }

  /** The `response_id` the next stateful chat continues from. */
  get lastResponseId(): string | null {
    return this.#lastResponseId;
  }

  /** Forgets the chain: the next stateful chat starts a new thread. */
  resetSession(): void {
    this.#lastResponseId = null;
  }

  /** Empties the response cache. */
  clearCache(): void {
    this.#cache?.clear();
  }

  /** Number of cached responses (0 when the cache is off). */
  get cacheSize(): number {
    return this.#cache?.size ?? 0;
  }

  async listModels(): Promise<ModelInfo[]> {
    const body = await this.#http.json<{ models?: RestModel[] }>(
      "GET",
      "/api/v1/models",
      undefined,
      "list models",
    );
    return (body?.models ?? []).flatMap(modelsFromRest);
  }

  async load(key: string, opts: LoadOptions): Promise<LoadResult> {
    const body = {
      model: key,
      context_length: opts.context_length,
      eval_batch_size: opts.n_batch,
      flash_attention: opts.flash_attention,
      offload_kv_cache_to_gpu: opts.n_gpu_layers !== 0,
      echo_load_config: true,
    };
    const res = await this.#http.json<RestLoadResponse>(
      "POST",
      "/api/v1/models/load",
      body,
      `load '${key}'`,
      // LM Studio answers a load once the model is in memory: allow the long wait.
      { firstByteMs: this.#http.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) },
    );
    if (res?.load_config && typeof res.load_config === "object") {
      this.#loadConfigs.set(res.instance_id ?? key, res.load_config);
    }
    return {
      instance_id: res?.instance_id ?? key,
      load_time_ms: typeof res?.load_time_seconds === "number"
        ? res.load_time_seconds * 1000
        : null,
    };
  }

  /**
   * The values an instance runs with: the `load_config` its load echoed, completed by its entry
   * in `GET /api/v1/models` (`loaded_instances[].config`, which also tells the parallel slots).
   */
  async serverConfig(_key: string, instanceId: string): Promise<ServerConfig | null> {
    const body = await this.#http.json<{ models?: RestModel[] }>(
      "GET",
      "/api/v1/models",
      undefined,
      "list models",
    );
    const listed = (body?.models ?? []).flatMap((m) => m.loaded_instances ?? [])
      .find((i) => i.id === instanceId)?.config ?? {};
    const cfg = { ...listed, ...(this.#loadConfigs.get(instanceId) ?? {}) };
    const out: ServerConfig = {};
    if (typeof cfg.context_length === "number") out.context_length = cfg.context_length;
    if (typeof cfg.eval_batch_size === "number") out.n_batch = cfg.eval_batch_size;
    if (typeof cfg.flash_attention === "boolean") out.flash_attention = cfg.flash_attention;
    if (typeof cfg.parallel === "number") out.parallel = cfg.parallel;
    if (Object.keys(out).length === 0) return null;
    return { ...out, source: "load_config and loaded_instances" };
  }

  async unload(instanceId: string): Promise<void> {
    this.#loadConfigs.delete(instanceId);
    await this.#http.json(
      "POST",
      "/api/v1/models/unload",
      { instance_id: instanceId },
      `unload '${instanceId}'`,
    );
  }

  chat(req: ChatRequest): Promise<ChatResult> {
    return this.chatWith(req);
  }

  /** A chat with the REST-only options (images, integrations, reasoning). */
  async chatWith(req: RestChatRequest): Promise<ChatResult> {
    const cacheable = this.#cache !== null && !this.#stateful && !(req.integrations?.length);
    const key = cacheable ? cacheKey(req.messages, req.model, req.temperature) : "";
    if (cacheable) {
      const hit = this.#cache!.get(key);
      if (hit !== null) return hit;
    }
    const { system_prompt, input } = toRestInput(req.messages, req.images);
    const body: Record<string, unknown> = {
      model: req.model,
      input,
      stream: true,
      store: this.#stateful,
      temperature: req.temperature,
      top_p: req.top_p,
      top_k: req.top_k,
      min_p: req.min_p,
      repeat_penalty: req.repeat_penalty,
      max_output_tokens: req.max_tokens,
    };
    if (system_prompt !== undefined) body.system_prompt = system_prompt;
    if (this.#stateful && this.#lastResponseId) body.previous_response_id = this.#lastResponseId;
    if (req.integrations?.length) body.integrations = req.integrations;
    if (req.reasoning !== undefined) body.reasoning = req.reasoning;
    if (req.context_length !== undefined) body.context_length = req.context_length;
    const what = `chat with '${req.model}'`;
    const t0 = performance.now();
    const { response, watchdog } = await this.#http.send(
      "POST",
      "/api/v1/chat",
      body,
      what,
      req.signal ? { signal: req.signal } : {},
    );
    let result: ChatResult;
    try {
      if (response.body === null) throw new Error("the response has no body");
      const ctx = req.onToken
        ? { t0, where: this.#http.where, onToken: req.onToken }
        : { t0, where: this.#http.where };
      result = await consumeRestChat(readSse(response.body, () => watchdog.touch()), ctx);
    } catch (err) {
      throw this.#http.mapStreamError(err, watchdog, what, req.signal);
    } finally {
      watchdog.clear();
    }
    if (this.#stateful && result.response_id) this.#lastResponseId = result.response_id;
    if (cacheable) this.#cache!.set(key, result);
    return result;
  }

  /** One status poll of a download job. */
  async downloadStatus(jobId: string): Promise<DownloadStatus> {
    const body = await this.#http.json<RestDownloadStatus>(
      "GET",
      `/api/v1/models/download/status/${encodeURIComponent(jobId)}`,
      undefined,
      `read download job '${jobId}'`,
    );
    return downloadFromRest(body);
  }

  /**
   * Starts a download; with `wait`, polls the job every `poll_interval_ms` (2 s) until it ends,
   * reporting each status to `onProgress`, and gives up after `timeout_ms`.
   */
  async download(key: string, opts: DownloadOptions = {}): Promise<DownloadStatus> {
    const req: Record<string, unknown> = { model: key };
    if (opts.quantization !== undefined) req.quantization = opts.quantization;
    const first = downloadFromRest(
      await this.#http.json<RestDownloadStatus>(
        "POST",
        "/api/v1/models/download",
        req,
        `download '${key}'`,
      ),
    );
    opts.onProgress?.(first);
    if (!opts.wait || TERMINAL.has(first.state) || first.job_id === null) return first;
    const interval = opts.poll_interval_ms ?? 2000;
    const limit = opts.timeout_ms ?? 3_600_000;
    const started = performance.now();
    let status = first;
    while (!TERMINAL.has(status.state)) {
      if (performance.now() - started + interval > limit) {
        throw new UpstreamTimeoutError(
          `Cannot wait for the download of '${key}': it did not finish within ${
            secondsText(limit)
          }`,
        );
      }
      await sleep(interval, opts.signal);
      status = await this.downloadStatus(first.job_id);
      opts.onProgress?.(status);
    }
    if (status.state === "failed") {
      throw new UpstreamError(`Cannot download '${key}': the model server reported a failure`, {
        code: "download_failed",
      });
    }
    return status;
  }

  close(): Promise<void> {
    this.#http.close();
    return Promise.resolve();
  }
}
