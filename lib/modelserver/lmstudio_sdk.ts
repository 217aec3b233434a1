/**
 * LM Studio SDK backend (`npm:@lmstudio/sdk@1.5.0`, WebSocket). Always connects to an explicit
 * `ws://host:port` (without it the SDK probes other ports and can crash Deno), races every call
 * against a timeout (a frame the SDK cannot validate makes it hang), and disposes its sockets on
 * {@linkcode LmStudioSdkClient.close}. Stats are the server's (time to first token, tokens/s,
 * token counts, stop reason).
 *
 * @module
 */

import type { LMStudioClient } from "@lmstudio/sdk";
import {
  AppError,
  messageOf,
  UnreachableError,
  UpstreamTimeoutError,
  UsageError,
} from "../error.ts";
import { createLogger, type Logger } from "../log.ts";
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
import {
  authError,
  isConnectionRefused,
  ModelUnloadedError,
  serverMessageError,
  timeoutError,
  unreachableError,
} from "./errors.ts";
import { FIRST_BYTE_MS, IDLE_MS } from "./http.ts";
import { modelsFromSdkEntries, sdkEntries, type SdkModelEntry } from "./lmstudio_models.ts";
import { sdkLoadConfig, statsFromSdk } from "./lmstudio_sdk_map.ts";
import { randomCredentials, RpcError, withRpcSession } from "./lmstudio_ws_rpc.ts";
import { untilAborted, type WaitReporter, Watchdog, withTimeout } from "./timeout.ts";

/**
 * The plain text of an SDK error: the SDK draws server errors in a box (`┌ Error ─┐ │ Model
 * unloaded. │ └─┘`); box characters and the heading are removed.
 */
export function sdkErrorText(err: unknown): string {
  const lines = messageOf(err).split("\n").map((l) => l.replace(/[\u2500-\u257f]/g, "").trim())
    .filter((l) => l !== "");
  if (lines.length > 1 && lines[0] === "Error") lines.shift();
  return lines.join(" ") || "unknown error";
}

/** LM Studio's API tokens: `sk-lm-<client identifier>:<client passkey>` (the SDK 2.x format). */
const TOKEN_RE = /^sk-lm-([A-Za-z0-9]+):([A-Za-z0-9]+)$/;

/**
 * The SDK's credentials in an LM Studio API token, as SDK 2.x sends them (1.5.0 has no `apiToken`
 * option: it takes the identifier and passkey).
 *
 * @throws {UsageError} when the token is not an LM Studio token
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sdkCredentials } from "./lmstudio_sdk.ts";
 * const c = sdkCredentials("sk-lm-abcd1234:abcdefghij0123456789");
 * assert.ok(c.clientIdentifier === "abcd1234" && c.clientPasskey === "abcdefghij0123456789");
 * ```
 */
export function sdkCredentials(token: string): { clientIdentifier: string; clientPasskey: string } {
  const m = TOKEN_RE.exec(token.trim());
  if (m === null) {
    throw new UsageError(
      "The API token is not an LM Studio token (sk-lm-<id>:<key>, made on LM Studio's Developer " +
        "page), so SDK mode cannot send it: check --api-token, or use --use-rest-api for a server " +
        "that takes any bearer token",
      { code: "invalid_token" },
    );
  }
  return { clientIdentifier: m[1]!, clientPasskey: m[2]! };
}

/** Options of {@linkcode LmStudioSdkClient}. */
export interface SdkClientOptions {
  /** @default "127.0.0.1" */
  host?: string;
  /** @default 1234 */
  port?: number;
  /** An `sk-lm-ID:KEY` token, sent as client identifier and passkey. @default null */
  token?: string | null;
  /** Silence allowed for a model load and between the fragments of a chat. @default 300_000 */
  timeoutMs?: number;
  /** Silence allowed for any other call and before a chat's first fragment. @default 60_000 */
  firstByteMs?: number;
  /** Told while a call waits for the server. */
  onWait?: WaitReporter;
  /** Receives the SDK's own log lines. @default a "modelserver.sdk" logger */
  logger?: Logger;
}

/** The SDK backend. */
export class LmStudioSdkClient implements Backend {
  readonly kind = "sdk" as const;
  readonly baseUrl: string;
  readonly #where: string;
  readonly #timeoutMs: number;
  readonly #firstByteMs: number;
  readonly #onWait: WaitReporter | undefined;
  readonly #credentials: { clientIdentifier: string; clientPasskey: string } | null;
  readonly #log: Logger;
  readonly #threads = new Map<string, number>();
  #client: LMStudioClient | null = null;

  constructor(options: SdkClientOptions = {}) {
    const host = options.host ?? "127.0.0.1";
    const port = options.port ?? 1234;
    this.#where = `${host}:${port}`;
    this.baseUrl = `ws://${this.#where}`;
    this.#timeoutMs = options.timeoutMs ?? IDLE_MS;
    this.#firstByteMs = options.firstByteMs ?? Math.min(FIRST_BYTE_MS, this.#timeoutMs);
    this.#onWait = options.onWait;
    this.#credentials = options.token ? sdkCredentials(options.token) : null;
    this.#log = options.logger ?? createLogger("modelserver.sdk");
  }

  describe(): string {
    return `LM Studio SDK at ${this.baseUrl}`;
  }

  /**
   * The SDK client, created on first use. The SDK is imported then too: it and its dependencies
   * take about 0.4 s and 35 MB to load, which the other backends, `--help` and the dashboard's
   * start do not need.
   */
  async #sdk(): Promise<LMStudioClient> {
    if (this.#client !== null) return this.#client;
    const { LMStudioClient } = await import("@lmstudio/sdk");
    if (this.#client !== null) return this.#client;
    const log = this.#log;
    const text = (m: unknown[]) =>
      m.map((x) => (typeof x === "string" ? x : messageOf(x))).join(" ");
    const opts: ConstructorParameters<typeof LMStudioClient>[0] = {
      baseUrl: this.baseUrl,
      verboseErrorMessages: false,
      logger: {
        info: (...m) => log.debug(text(m)),
        debug: (...m) => log.debug(text(m)),
        warn: (...m) => log.debug(text(m)),
        error: (...m) => log.warn(text(m)),
      },
    };
    if (this.#credentials !== null) Object.assign(opts, this.#credentials);
    this.#client = new LMStudioClient(opts);
    return this.#client;
  }

  /** Runs an SDK call within the first-byte time (a load: the long time). */
  async #call<T>(
    what: string,
    fn: (c: LMStudioClient) => Promise<T>,
    signal?: AbortSignal,
    long = false,
  ): Promise<T> {
    const ms = long ? this.#timeoutMs : this.#firstByteMs;
    try {
      return await withTimeout(
        this.#sdk().then(fn),
        ms,
        () => timeoutError(what, this.#where, ms),
        signal,
        { what, ...(this.#onWait ? { onWait: this.#onWait } : {}) },
      );
    } catch (err) {
      throw this.#map(err, what, signal);
    }
  }

  #map(err: unknown, what: string, signal?: AbortSignal): unknown {
    if (err instanceof AppError) return err;
    if (signal?.aborted) return signal.reason;
    if (isConnectionRefused(err)) return unreachableError(this.#where, err);
    const text = sdkErrorText(err);
    if (/passkey|authenticat|api token/i.test(text)) {
      return authError(this.#where, this.#credentials !== null);
    }
    return serverMessageError(`Cannot ${what}: ${text}`);
  }

  async version(): Promise<string | null> {
    const v = await this.#call("read the LM Studio version", (c) => c.system.getLMStudioVersion())
      .catch((err) => {
        if (err instanceof UnreachableError || err instanceof UpstreamTimeoutError) {
          throw err;
        }
        return null;
      });
    return v?.version ?? null;
  }

  /**
   * Every downloaded variant. The list comes over the protocol itself (see lmstudio_ws_rpc.ts):
   * SDK 1.5.0 drops the variants a current server lists. The loaded instances come from the SDK.
   */
  listModels(): Promise<ModelInfo[]> {
    return this.#call("list models", async (c) => {
      // The SDK first: its errors tell a refused connection apart (Deno's WebSocket says
      // only "tcp connect error").
      const [llms, embeddings] = await Promise.all([c.llm.listLoaded(), c.embedding.listLoaded()]);
      const downloaded = await this.#downloaded();
      const loaded = [...llms, ...embeddings];
      // An instance names its model by the variant key, or by the model key when it has one.
      const variants = Map.groupBy(downloaded, (m) => m.base_key);
      return downloaded.map((m) => ({
        ...m,
        loaded_instances: loaded.filter((l) =>
          l.modelKey === m.key ||
          (l.modelKey === m.base_key && variants.get(m.base_key)!.length === 1)
        ).map((l) => l.identifier),
      }));
    });
  }

  /** `listDownloadedModels`, and `listDownloadedModelVariants` of each model with variants. */
  #downloaded(): Promise<ModelInfo[]> {
    return withRpcSession(
      `${this.baseUrl}/system`,
      this.#credentials ?? randomCredentials(),
      async (call) => {
        const entries = sdkEntries(await call("listDownloadedModels"));
        const details = new Map<string, SdkModelEntry[]>();
        for (const e of entries) {
          if ((e.variants?.length ?? 0) < 2) continue;
          try {
            details.set(
              e.modelKey,
              sdkEntries(await call("listDownloadedModelVariants", { modelKey: e.modelKey })),
            );
          } catch (err) {
            // A server without the call: the variant keys still tell each quantization.
            if (!(err instanceof RpcError)) throw err;
          }
        }
        return modelsFromSdkEntries(entries, details);
      },
      this.#firstByteMs,
    );
  }

  async load(key: string, opts: LoadOptions): Promise<LoadResult> {
    const t0 = performance.now();
    const model = await this.#call(
      `load '${key}'`,
      (c) =>
        c.llm.load(key, {
          config: sdkLoadConfig(opts),
          verbose: false,
          ...(opts.signal ? { signal: opts.signal } : {}),
        }),
      opts.signal,
      true,
    );
    if (opts.n_threads > 0) this.#threads.set(model.identifier, opts.n_threads);
    return { instance_id: model.identifier, load_time_ms: performance.now() - t0 };
  }

  /** The context length the instance runs with (the SDK's load config). */
  async serverConfig(_key: string, instanceId: string): Promise<ServerConfig | null> {
    const ctx = await this.#call(
      `read the load config of '${instanceId}'`,
      (c) => c.llm.createDynamicHandle({ identifier: instanceId }).getContextLength(),
    );
    return typeof ctx === "number" ? { context_length: ctx, source: "SDK load config" } : null;
  }

  /** Exact prompt tokens: LM Studio renders the chat template and counts its tokens. */
  promptTokens(model: string, messages: ChatMessage[]): Promise<number | null> {
    return this.#call(`count the prompt tokens of '${model}'`, async (c) => {
      const handle = c.llm.createDynamicHandle({ identifier: model });
      const formatted = await handle.applyPromptTemplate(messages);
      return await handle.countTokens(formatted);
    });
  }

  async unload(instanceId: string): Promise<void> {
    await this.#call(`unload '${instanceId}'`, (c) => c.llm.unload(instanceId));
    this.#threads.delete(instanceId);
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    const sdk = await this.#sdk(); // before the clock starts
    const what = `chat with '${req.model}'`;
    const watchdog = new Watchdog(this.#firstByteMs, req.signal, {
      idleMs: this.#timeoutMs,
      what,
      ...(this.#onWait ? { onWait: this.#onWait } : {}),
    });
    const t0 = performance.now();
    let ttft: number | null = null;
    let last: number | null = null;
    let text = "";
    let deltas = 0;
    const times: number[] = [];
    try {
      const handle = sdk.llm.createDynamicHandle({ identifier: req.model });
      const threads = this.#threads.get(req.model);
      const prediction = handle.respond(req.messages, {
        maxTokens: req.max_tokens,
        temperature: req.temperature,
        topKSampling: req.top_k,
        topPSampling: req.top_p,
        minPSampling: req.min_p,
        repeatPenalty: req.repeat_penalty,
        ...(threads === undefined ? {} : { cpuThreads: threads }),
        // Prompt processing is the server's first sign of life: from there the idle time applies.
        onPromptProcessingProgress: () => watchdog.touch(),
        signal: watchdog.signal,
      });
      const result = await untilAborted(
        (async () => {
          for await (const fragment of prediction) {
            watchdog.touch();
            const t = performance.now() - t0;
            if (ttft === null) ttft = t;
            last = t;
            deltas++;
            times.push(t);
            text += fragment.content;
            req.onToken?.(fragment.content, t);
          }
          return await prediction.result();
        })(),
        watchdog.signal,
      );
      if (result.stats.stopReason === "modelUnloaded") {
        throw new ModelUnloadedError("Model unloaded during the prediction");
      }
      return {
        text: text || result.content,
        stats: statsFromSdk(result.stats),
        client: {
          ttft_ms: ttft,
          last_token_ms: last,
          total_ms: performance.now() - t0,
          tokens_out: deltas,
          token_times_ms: times,
        },
        response_id: null,
      };
    } catch (err) {
      if (watchdog.timedOut) throw timeoutError(what, this.#where, watchdog.ms);
      throw this.#map(err, what, req.signal);
    } finally {
      watchdog.clear();
    }
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = null;
    if (client === null) return;
    // Dispose waits for pending calls; one that timed out may never end, so wait 1 s at most.
    await withTimeout(client[Symbol.asyncDispose](), 1000, () => new Error("dispose timed out"))
      .catch((err) => this.#log.debug(`SDK dispose: ${messageOf(err)}`));
  }
}

/**
 * Reads the LM Studio version over the SDK protocol with a short-lived client (used by the REST
 * backend, whose API has no version route). Null when the server does not answer the RPC.
 */
export async function probeSdkVersion(
  host: string,
  port: number,
  token: string | null,
  timeoutMs = 5000,
): Promise<string | null> {
  let client: LmStudioSdkClient | null = null;
  try {
    client = new LmStudioSdkClient({ host, port, token, timeoutMs });
    return await client.version();
  } catch {
    return null; // no SDK server there, or a bearer token the SDK cannot send
  } finally {
    await client?.close();
  }
}
