/**
 * Shared state of the LM Studio doubles (REST v1, `/v1` OpenAI routes and the SDK protocol all
 * see the same loaded instances), the injectable faults, and the chat preparation they share.
 *
 * @module
 */

import {
  type CatalogueModel,
  defaultCatalogue,
  variantKey,
  type VariantSpec,
} from "./_lmstudio_catalogue.ts";
import { generate, type Generation } from "./_lmstudio_gen.ts";

/** An error the doubles turn into the official error body (or an SDK error frame). */
export class DoubleError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }

  /** The official body `{"error":{type,message,code?,param?}}`. */
  body(): { error: Record<string, string> } {
    const error: Record<string, string> = { type: this.type, message: this.message };
    if (this.code !== undefined) error.code = this.code;
    if (this.param !== undefined) error.param = this.param;
    return { error };
  }
}

/** Faults tests can inject. Keys may be model keys, variant keys or instance ids. */
export interface Faults {
  /** The next chat of each listed model reports "Model unloaded" (and the instance is gone). */
  modelUnloadedOnce: Set<string>;
  /** The first chat after each load of a listed model fails. */
  failWarmup: Set<string>;
  /** Every chat of a listed model fails. */
  failChat: Set<string>;
  /** Every load of a listed model fails. */
  failLoad: Set<string>;
  /** Send an `error` event with this message after `midStreamErrorAfterTokens` tokens. */
  midStreamError: string | null;
  midStreamErrorAfterTokens: number;
  /** Close the connection after this many tokens (no chat.end). */
  dropStreamAfterTokens: number | null;
  /** Accept requests and never answer (released when the double closes). */
  neverAnswer: boolean;
  /** Extra real delay per token, in ms. */
  slowTokensMs: number;
  /** Hold each streamed answer back and send it in one write at its end (a buffering proxy). */
  burstStream: boolean;
}

/** A fresh set of faults (all off). */
export function noFaults(): Faults {
  return {
    modelUnloadedOnce: new Set(),
    failWarmup: new Set(),
    failChat: new Set(),
    failLoad: new Set(),
    midStreamError: null,
    midStreamErrorAfterTokens: 3,
    dropStreamAfterTokens: null,
    neverAnswer: false,
    slowTokensMs: 0,
    burstStream: false,
  };
}

/** A loaded model instance. */
export interface Instance {
  id: string;
  model: CatalogueModel;
  variant: VariantSpec;
  config: {
    context_length: number;
    eval_batch_size: number;
    parallel: number;
    flash_attention: boolean;
    offload_kv_cache_to_gpu: boolean;
  };
  /** Chats since load (warmup = the first). */
  chats: number;
}

/** A download job. */
export interface DownloadJob {
  job_id: string;
  model: CatalogueModel;
  total: number;
  downloaded: number;
  status: "downloading" | "completed";
  started_at: string;
  completed_at?: string;
}

/** Options of {@linkcode DoubleState}. */
export interface DoubleStateOptions {
  catalogue?: CatalogueModel[];
  /** PRNG seed of the generated text. @default 42 */
  seed?: number;
  /** Real delay per token of a 100 tok/s model. @default 0 */
  tokenDelayMs?: number;
  /** Status polls until a download completes. @default 3 */
  downloadSteps?: number;
  /** LM Studio version reported over the SDK protocol. @default "0.4.1" */
  version?: string;
}

/** A chat ready to be streamed. */
export interface PreparedChat {
  instance: Instance;
  /** Seconds spent loading when the chat had to load the model (JIT), else null. */
  jitLoadSeconds: number | null;
  gen: Generation;
  /** Injected failure to report during the stream, if any. */
  streamError: { message: string; afterTokens: number } | null;
}

/** The doubles' shared state. */
export class DoubleState {
  readonly catalogue: CatalogueModel[];
  readonly instances = new Map<string, Instance>();
  readonly jobs = new Map<string, DownloadJob>();
  /** Stored threads by `response_id`: the prompts and answers so far. */
  readonly responses = new Map<string, string>();
  readonly faults: Faults = noFaults();
  /** Every request seen: method, path, Authorization header, JSON body. */
  readonly requests: {
    method: string;
    path: string;
    authorization: string | null;
    body: unknown;
  }[] = [];
  /** REST chat streams open right now, and the most that were ever open at once. */
  activeChats = 0;
  maxActiveChats = 0;
  readonly seed: number;
  tokenDelayMs: number;
  readonly downloadSteps: number;
  /** What the SDK `version` RPC answers. */
  lmStudioVersion: { version: string; build: number };
  #nextJob = 1;
  #nextResp = 1;

  constructor(options: DoubleStateOptions = {}) {
    this.catalogue = options.catalogue ?? defaultCatalogue();
    this.seed = options.seed ?? 42;
    this.tokenDelayMs = options.tokenDelayMs ?? 0;
    this.downloadSteps = options.downloadSteps ?? 3;
    this.lmStudioVersion = { version: options.version ?? "0.4.1", build: 3 };
  }

  /** Installed models. */
  installed(): CatalogueModel[] {
    return this.catalogue.filter((m) => m.downloaded);
  }

  /** Finds an installed model by model key or variant key. */
  findModel(ref: string): { model: CatalogueModel; variant: VariantSpec } | null {
    for (const model of this.installed()) {
      if (model.key === ref) return { model, variant: model.variants[0]! };
      const variant = model.variants.find((v) => variantKey(model, v) === ref);
      if (variant) return { model, variant };
    }
    return null;
  }

  /** Instances of a model (by model key or variant key). */
  instancesOf(ref: string): Instance[] {
    return [...this.instances.values()].filter((i) =>
      i.model.key === ref || variantKey(i.model, i.variant) === ref
    );
  }

  /** Loads a model; the instance id is `identifier`, else the key, or `key:N` when already loaded. */
  load(ref: string, config: Partial<Instance["config"]> = {}, identifier?: string): Instance {
    const found = this.findModel(ref);
    if (found === null) {
      throw new DoubleError(
        404,
        "model_not_found",
        `Model "${ref}" not found`,
        "model_not_found",
        "model",
      );
    }
    if (this.#matches(this.faults.failLoad, ref, found.model.key, null)) {
      throw new DoubleError(
        500,
        "internal_error",
        `Failed to load model "${ref}": simulated failure`,
      );
    }
    if (identifier !== undefined && this.instances.has(identifier)) {
      throw new DoubleError(
        409,
        "invalid_request",
        `An instance with identifier "${identifier}" is already loaded`,
      );
    }
    let id = identifier ?? ref;
    for (let n = 2; this.instances.has(id); n++) id = `${ref}:${n}`;
    const instance: Instance = {
      id,
      ...found,
      config: {
        context_length: config.context_length ?? 4096,
        eval_batch_size: config.eval_batch_size ?? 512,
        parallel: config.parallel ?? 4,
        flash_attention: config.flash_attention ?? true,
        offload_kv_cache_to_gpu: config.offload_kv_cache_to_gpu ?? true,
      },
      chats: 0,
    };
    this.instances.set(id, instance);
    return instance;
  }

  /** Unloads an instance; 404 when it is not loaded. */
  unload(id: string): void {
    if (!this.instances.delete(id)) {
      throw new DoubleError(
        404,
        "model_not_found",
        `No loaded model instance with id "${id}"`,
        "model_not_found",
        "instance_id",
      );
    }
  }

  /** Resolves the model of a chat, applies faults, loads just in time, and generates. */
  prepareChat(ref: string, prompt: string, maxTokens: number): PreparedChat {
    let instance: Instance | undefined = this.instances.get(ref) ?? this.instancesOf(ref)[0];
    const key = instance?.model.key ?? this.findModel(ref)?.model.key ?? ref;
    if (this.#take(this.faults.modelUnloadedOnce, ref, key, instance?.id ?? null)) {
      for (const i of this.instancesOf(key)) this.instances.delete(i.id);
      return this.#failing(ref, prompt, "Model unloaded.");
    }
    let jitLoadSeconds: number | null = null;
    if (instance === undefined) {
      instance = this.load(ref);
      jitLoadSeconds = instance.model.load_seconds;
    }
    instance.chats++;
    const warmupFails = instance.chats === 1 &&
      this.#matches(this.faults.failWarmup, ref, key, instance.id);
    if (warmupFails || this.#matches(this.faults.failChat, ref, key, instance.id)) {
      throw new DoubleError(
        500,
        "internal_error",
        `Failed to generate a response with "${ref}": simulated failure`,
      );
    }
    const gen = this.#generate(instance, prompt, maxTokens);
    const streamError = this.faults.midStreamError === null
      ? null
      : { message: this.faults.midStreamError, afterTokens: this.faults.midStreamErrorAfterTokens };
    return { instance, jitLoadSeconds, gen, streamError };
  }

  /** Counts an open chat stream until `stream` ends (for concurrency checks). */
  async *tracked(stream: AsyncGenerator<string>): AsyncGenerator<string> {
    this.activeChats++;
    this.maxActiveChats = Math.max(this.maxActiveChats, this.activeChats);
    try {
      yield* stream;
    } finally {
      this.activeChats--;
    }
  }

  /** A new `resp_…` id storing the thread so far. */
  storeResponse(thread: string): string {
    const id = `resp_${(this.#nextResp++).toString(16).padStart(8, "0")}`;
    this.responses.set(id, thread);
    return id;
  }

  /** Starts a download job, or reports `already_downloaded`. */
  startDownload(ref: string): DownloadJob | "already_downloaded" {
    const base = ref.split("@")[0]!;
    const model = this.catalogue.find((m) => m.key === base);
    if (model === undefined) {
      throw new DoubleError(
        404,
        "model_not_found",
        `Model "${ref}" not found in the catalog`,
        "model_not_found",
        "model",
      );
    }
    if (model.downloaded) return "already_downloaded";
    const job: DownloadJob = {
      job_id: `job_${(this.#nextJob++).toString().padStart(10, "0")}`,
      model,
      total: model.variants[0]!.size_bytes,
      downloaded: 0,
      status: "downloading",
      started_at: new Date().toISOString(),
    };
    this.jobs.set(job.job_id, job);
    return job;
  }

  /** Advances a job by one step (each status poll) and returns it. */
  pollDownload(jobId: string): DownloadJob {
    const job = this.jobs.get(jobId);
    if (job === undefined) {
      throw new DoubleError(
        404,
        "job_not_found",
        `Download job "${jobId}" not found`,
        "job_not_found",
        "job_id",
      );
    }
    if (job.status === "downloading") {
      job.downloaded = Math.min(
        job.total,
        job.downloaded + Math.ceil(job.total / this.downloadSteps),
      );
      if (job.downloaded >= job.total) {
        job.status = "completed";
        job.completed_at = new Date().toISOString();
        job.model.downloaded = true;
      }
    }
    return job;
  }

  #failing(ref: string, prompt: string, message: string): PreparedChat {
    const found = this.findModel(ref) ??
      { model: this.installed()[0]!, variant: this.installed()[0]!.variants[0]! };
    const instance: Instance = {
      id: ref,
      ...found,
      config: {
        context_length: 0,
        eval_batch_size: 0,
        parallel: 1,
        flash_attention: false,
        offload_kv_cache_to_gpu: false,
      },
      chats: 0,
    };
    const gen = this.#generate(instance, prompt, 0);
    return { instance, jitLoadSeconds: null, gen, streamError: { message, afterTokens: 0 } };
  }

  #generate(instance: Instance, prompt: string, maxTokens: number): Generation {
    return generate({
      seed: this.seed,
      model: variantKey(instance.model, instance.variant),
      prompt,
      maxTokens,
      speedTps: instance.variant.speed_tps,
      prefillTps: instance.model.prefill_tps,
      tokenDelayMs: this.tokenDelayMs,
    });
  }

  #matches(set: Set<string>, ref: string, key: string, id: string | null): boolean {
    return set.has(ref) || set.has(key) || (id !== null && set.has(id));
  }

  #take(set: Set<string>, ref: string, key: string, id: string | null): boolean {
    for (const k of [ref, key, id]) {
      if (k !== null && set.delete(k)) return true;
    }
    return false;
  }
}
