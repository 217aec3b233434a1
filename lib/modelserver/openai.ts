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
  ChatMessage,
  ChatRequest,
  ChatResult,
  LoadOptions,
  LoadResult,
  ModelInfo,
  ServerConfig,
} from "./backend.ts";
import { UnreachableError, UpstreamError, UpstreamTimeoutError } from "../error.ts";
import { readGgufInfo } from "./gguf_header.ts";
import { HttpTransport, type HttpTransportOptions } from "./http.ts";
import {
  argValue,
  type LlamaProps,
  modelPathOfArgs,
  serverConfigFromArgs,
  serverConfigFromProps,
} from "./llamacpp_info.ts";
import { consumeOpenAiChat } from "./openai_stream.ts";
import { modelFromOpenAi, type OpenAiModel } from "./openai_models.ts";
import { readSse } from "./sse.ts";

/** Host names of this machine: a model file a server there names can be read here. */
const LOCAL_HOSTS = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** Longest wait for the llama.cpp router to finish loading or unloading a model. */
const ROUTER_WAIT_MS = 120_000;

/** Whether an error is the llama.cpp router saying the model is loaded already. */
function isAlreadyRunning(err: unknown): boolean {
  return err instanceof UpstreamError && err.upstreamStatus === 400 &&
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
  /** `/props` of the server (null: none; undefined: not asked yet). */
  #props: LlamaProps | null | undefined = undefined;
  /** Whether the server runs on this machine (its model files can be read here). */
  readonly #local: boolean;

  constructor(options: OpenAiClientOptions) {
    this.#http = new HttpTransport({
      ...options,
      baseUrl: options.baseUrl.replace(/\/v1\/?$/, ""),
    });
    this.#local = LOCAL_HOSTS.test(new URL(this.#http.base).hostname);
  }

  describe(): string {
    return `OpenAI-compatible server at ${this.#http.base}`;
  }

  /** `GET /props` (llama.cpp), with `?model=` for a model of the router; null elsewhere. */
  async #readProps(model?: string): Promise<LlamaProps | null> {
    try {
      const path = model === undefined ? "/props" : `/props?model=${encodeURIComponent(model)}`;
      return await this.#http.json<LlamaProps>("GET", path, undefined, "read the server's props");
    } catch (err) {
      if (err instanceof UnreachableError || err instanceof UpstreamTimeoutError) {
        throw err;
      }
      return null;
    }
  }

  /** The server's own `/props`, asked once. */
  async #serverProps(): Promise<LlamaProps | null> {
    if (this.#props === undefined) this.#props = await this.#readProps();
    return this.#props;
  }

  /** Whether the server is llama.cpp's (its `/props` carries `build_info`). */
  async isLlamaCpp(): Promise<boolean> {
    return typeof (await this.#serverProps())?.build_info === "string";
  }

  /** llama.cpp's `GET /props` `build_info` (e.g. `b6500-de3ff81`), else null. */
  async version(): Promise<string | null> {
    const props = await this.#serverProps();
    return typeof props?.build_info === "string" ? props.build_info : null;
  }

  /** llama.cpp takes `ignore_eos`; other servers only a maximum. */
  async outputControl(): Promise<"exact" | "max"> {
    return (await this.isLlamaCpp()) ? "exact" : "max";
  }

  async listModels(): Promise<ModelInfo[]> {
    const body = await this.#http.json<{ data?: OpenAiModel[] }>(
      "GET",
      "/v1/models",
      undefined,
      "list models",
    );
    const data = body?.data ?? [];
    return await Promise.all(data.map(async (m) => modelFromOpenAi(m, await this.#gguf(m, data))));
  }

  /**
   * The header of a model's GGUF file when the server is on this machine: the router names it in
   * the model's command line; a single-model server in `/props` (`model_path`).
   */
  async #gguf(m: OpenAiModel, all: OpenAiModel[]) {
    if (!this.#local) return null;
    let path = modelPathOfArgs(m.status?.args);
    if (path === null && all.length === 1 && m.status === undefined) {
      const props = await this.#serverProps();
      path = typeof props?.model_path === "string" ? props.model_path : null;
    }
    return path === null ? null : await readGgufInfo(path);
  }

  /**
   * What the server runs a loaded model with: the router's command line for it and its `/props`
   * (slots, per-slot context), or the single server's `/props`.
   */
  async serverConfig(key: string): Promise<ServerConfig | null> {
    if (!(await this.isLlamaCpp())) return null;
    let fromArgs: ServerConfig = {};
    let props: LlamaProps | null;
    if (this.#router) {
      const body = await this.#http.json<{ data?: OpenAiModel[] }>(
        "GET",
        "/v1/models",
        undefined,
        "list models",
      );
      const args = body?.data?.find((m) => m.id === key)?.status?.args;
      if (args) fromArgs = serverConfigFromArgs(args);
      props = await this.#readProps(key);
    } else props = await this.#serverProps();
    const config = { ...serverConfigFromProps(props), ...fromArgs };
    if (Object.keys(config).length === 0) return null;
    return { ...config, source: this.#router ? "router arguments and /props" : "/props" };
  }

  /**
   * The router's state of the model and the port of its model server (`loaded|41234`): a model
   * server killed and started again by the router has another port. Null without a router.
   */
  async loadMarker(key: string): Promise<string | null> {
    if (!this.#router) return null;
    const body = await this.#http.json<{ data?: OpenAiModel[] }>(
      "GET",
      "/v1/models",
      undefined,
      "list models",
    );
    const status = body?.data?.find((m) => m.id === key)?.status;
    if (!status) return null;
    return `${status.value ?? "?"}|${argValue(status.args ?? [], ["--port"]) ?? "?"}`;
  }

  /** Exact prompt tokens through llama.cpp's `/apply-template` and `/tokenize`; null elsewhere. */
  async promptTokens(model: string, messages: ChatMessage[]): Promise<number | null> {
    if (!(await this.isLlamaCpp())) return null;
    const rendered = await this.#http.json<{ prompt?: unknown }>(
      "POST",
      "/apply-template",
      { model, messages },
      "apply the chat template",
    );
    if (typeof rendered?.prompt !== "string") return null;
    const tokens = await this.#http.json<{ tokens?: unknown[] }>(
      "POST",
      "/tokenize",
      { model, content: rendered.prompt, add_special: true },
      "tokenize the prompt",
    );
    return Array.isArray(tokens?.tokens) ? tokens.tokens.length : null;
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
      const missing = err instanceof UpstreamError &&
        (err.upstreamStatus === 404 || err.upstreamStatus === 405);
      if (!missing) throw err;
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
        throw new UpstreamError(`Cannot load '${key}': the llama.cpp router reports it failed`, {
          code: "load_failed",
        });
      }
      if (performance.now() - started > ROUTER_WAIT_MS) {
        throw new UpstreamTimeoutError(
          `Cannot ${
            want === "loaded" ? "load" : "unload"
          } '${key}': still ${status} after ${ROUTER_WAIT_MS} ms`,
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
    if (req.exact_output && (await this.isLlamaCpp())) body.ignore_eos = true;
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
    this.#http.close();
    return Promise.resolve();
  }
}
