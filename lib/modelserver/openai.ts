/**
 * OpenAI-compatible backend for llama.cpp's server, vLLM, Ollama and LM Studio's `/v1`:
 * `GET /v1/models`, `POST /v1/chat/completions` streamed with `stream_options.include_usage`,
 * client-measured time to first token and speed, llama.cpp `timings` when present, and the
 * llama.cpp router's `POST /models/load` / `/models/unload` when the server has them.
 *
 * Load options this backend cannot set: all of them except the model (servers such as
 * llama-server take their load settings on their own command line).
 *
 * @module
 */

import type {
  Backend,
  ChatRequest,
  ChatResult,
  LoadOptions,
  LoadResult,
  ModelInfo,
} from "./backend.ts";
import { AppError } from "../error.ts";
import { HttpTransport, type HttpTransportOptions } from "./http.ts";
import { consumeOpenAiChat } from "./openai_stream.ts";
import { modelFromOpenAi, type OpenAiModel } from "./openai_models.ts";
import { readSse } from "./sse.ts";

/** Longest wait for the llama.cpp router to finish loading or unloading a model. */
const ROUTER_WAIT_MS = 120_000;

/** Whether an error is the llama.cpp router saying the model is loaded already. */
function isAlreadyRunning(err: unknown): boolean {
  return err instanceof AppError && err.status === 400 &&
    /already (running|loaded)/i.test(err.message);
}

/** Options of {@linkcode OpenAiClient}: `baseUrl` is the server root, without `/v1`. */
export type OpenAiClientOptions = HttpTransportOptions;

/** The OpenAI-compatible backend. */
export class OpenAiClient implements Backend {
  readonly kind = "openai" as const;
  readonly #http: HttpTransport;
  /** Whether `/models/load` exists (null until tried). */
  #router: boolean | null = null;

  constructor(options: OpenAiClientOptions) {
    this.#http = new HttpTransport({
      ...options,
      baseUrl: options.baseUrl.replace(/\/v1\/?$/, ""),
    });
  }

  describe(): string {
    return `OpenAI-compatible server at ${this.#http.base}`;
  }

  /** llama.cpp's `GET /props` `build_info` (e.g. `b6500-de3ff81`), else null. */
  async version(): Promise<string | null> {
    try {
      const props = await this.#http.json<{ build_info?: unknown }>(
        "GET",
        "/props",
        undefined,
        "read the server version",
      );
      return typeof props?.build_info === "string" ? props.build_info : null;
    } catch (err) {
      if (err instanceof AppError && (err.code === "unreachable" || err.code === "timeout")) {
        throw err;
      }
      return null;
    }
  }

  async listModels(): Promise<ModelInfo[]> {
    const body = await this.#http.json<{ data?: OpenAiModel[] }>(
      "GET",
      "/v1/models",
      undefined,
      "list models",
    );
    return (body?.data ?? []).map(modelFromOpenAi);
  }

  /**
   * Loads through the llama.cpp router when present; otherwise the server loads on demand. A
   * model the router already runs ("model is already running", HTTP 400) is unloaded and loaded
   * again, so every benchmark starts from a fresh load and measures its time.
   */
  async load(key: string, opts: LoadOptions): Promise<LoadResult> {
    if (this.#router === false) return { instance_id: key, load_time_ms: null };
    let t0 = performance.now();
    try {
      let res: { success?: unknown } | null;
      try {
        res = await this.#routerLoad(key, opts.signal);
      } catch (err) {
        if (!isAlreadyRunning(err)) throw err;
        this.#router = true;
        await this.unload(key);
        t0 = performance.now();
        res = await this.#routerLoad(key, opts.signal);
      }
      this.#router = res?.success === true;
      if (this.#router) await this.#waitForStatus(key, "loaded", opts.signal);
    } catch (err) {
      if (!(err instanceof AppError && (err.status === 404 || err.status === 405))) throw err;
      this.#router = false;
    }
    return { instance_id: key, load_time_ms: this.#router ? performance.now() - t0 : null };
  }

  #routerLoad(key: string, signal?: AbortSignal): Promise<{ success?: unknown } | null> {
    return this.#http.json<{ success?: unknown }>(
      "POST",
      "/models/load",
      { model: key },
      `load '${key}'`,
      signal ? { signal } : {},
    );
  }

  async unload(instanceId: string): Promise<void> {
    if (this.#router !== true) return;
    await this.#http.json(
      "POST",
      "/models/unload",
      { model: instanceId },
      `unload '${instanceId}'`,
    );
    await this.#waitForStatus(instanceId, "unloaded");
  }

  /** Polls the router's model list until `key` has the wanted status (it loads in the background). */
  async #waitForStatus(
    key: string,
    want: "loaded" | "unloaded",
    signal?: AbortSignal,
  ): Promise<void> {
    const started = performance.now();
    for (;;) {
      signal?.throwIfAborted();
      const body = await this.#http.json<{ data?: OpenAiModel[] }>(
        "GET",
        "/v1/models",
        undefined,
        "list models",
      );
      const status = body?.data?.find((m) => m.id === key)?.status?.value;
      if (status === undefined || status === want) return;
      if (status === "failed") {
        throw new AppError(502, `Cannot load '${key}': the llama.cpp router reports it failed`, {
          code: "load_failed",
        });
      }
      if (performance.now() - started > ROUTER_WAIT_MS) {
        throw new AppError(
          504,
          `Cannot ${
            want === "loaded" ? "load" : "unload"
          } '${key}': still ${status} after ${ROUTER_WAIT_MS} ms`,
          { code: "timeout" },
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    const body: Record<string, unknown> = {
      model: req.model,
      messages: req.messages,
      temperature: req.temperature,
      top_p: req.top_p,
      top_k: req.top_k,
      min_p: req.min_p,
      repeat_penalty: req.repeat_penalty,
      max_tokens: req.max_tokens,
      stream: true,
      stream_options: { include_usage: true },
    };
    if (req.noCache) body.cache_prompt = false;
    const what = `chat with '${req.model}'`;
    const t0 = performance.now();
    const { response, watchdog } = await this.#http.send(
      "POST",
      "/v1/chat/completions",
      body,
      what,
      req.signal ? { signal: req.signal } : {},
    );
    try {
      if (response.body === null) throw new Error("the response has no body");
      const ctx = req.onToken
        ? { t0, where: this.#http.where, onToken: req.onToken }
        : { t0, where: this.#http.where };
      return await consumeOpenAiChat(readSse(response.body, () => watchdog.touch()), ctx);
    } catch (err) {
      throw this.#http.mapStreamError(err, watchdog, what, req.signal);
    } finally {
      watchdog.clear();
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
