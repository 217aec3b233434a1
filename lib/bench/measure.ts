/**
 * One measured inference: a fresh nonce at the start of the prompt so the server's prompt cache
 * cannot serve it (plus the backend's own cache switch where it has one), and the single reload
 * and retry when the server says the model was unloaded.
 *
 * @module
 */
import {
  type Backend,
  type ChatRequest,
  type ChatResult,
  isModelUnloaded,
} from "../modelserver/mod.ts";
import type { Config } from "../config/mod.ts";

/** Sampling values of a chat, from the configuration. */
export function samplingOf(config: Config): Pick<
  ChatRequest,
  "temperature" | "top_k" | "top_p" | "min_p" | "repeat_penalty" | "max_tokens"
> {
  const i = config.inference;
  return {
    temperature: i.temperature,
    top_k: i.top_k_sampling,
    top_p: i.top_p_sampling,
    min_p: i.min_p_sampling,
    repeat_penalty: i.repeat_penalty,
    max_tokens: i.max_tokens,
  };
}

/** A short random nonce. */
export function randomNonce(): string {
  return crypto.randomUUID().slice(0, 8);
}

/** The prompt as sent: a nonce first, so no prompt-cache prefix can match an earlier run. */
export function promptWithNonce(prompt: string, nonce: string): string {
  return `[${nonce}] ${prompt}`;
}

/** What one measurement needs. */
export interface MeasureContext {
  backend: Backend;
  config: Config;
  signal: AbortSignal;
  nonce: () => string;
  onToken?: (delta: string) => void;
  /** Reloads the model after `Model unloaded`; returns the new instance id. */
  reload(): Promise<string>;
}

/** The outcome of {@linkcode measureOnce}. */
export interface Measured {
  result: ChatResult;
  /** True when the model was reloaded and the inference repeated. */
  retried: boolean;
  instanceId: string;
  /** When the (last) request was sent: Unix epoch milliseconds, sub-millisecond precision. */
  sent_at_ms: number;
}

/** What a controlled workload changes in one request. */
export interface RequestShape {
  /** The whole user message (nonce included), instead of the configured prompt. */
  content?: string;
  /**
   * Text before the message and its nonce, the same in every request (`--shared-prefix-tokens`):
   * the server's prompt cache is then left on, so it may serve this prefix (never what follows).
   */
  prefix?: string;
  /** Output tokens asked for, instead of `max_tokens`. */
  max_tokens?: number;
  /** Generate exactly `max_tokens` where the server can. */
  exact_output?: boolean;
}

/**
 * Runs one inference on `instanceId`. When it fails with `Model unloaded`, reloads the model and
 * repeats it once; a second failure is thrown.
 */
export async function measureOnce(
  ctx: MeasureContext,
  instanceId: string,
  shape: RequestShape = {},
): Promise<Measured> {
  const content = (shape.prefix ?? "") +
    (shape.content ?? promptWithNonce(ctx.config.prompt, ctx.nonce()));
  const sampling = samplingOf(ctx.config);
  const attempt = (id: string) =>
    ctx.backend.chat({
      model: id,
      messages: [{ role: "user", content }],
      ...sampling,
      ...(shape.max_tokens !== undefined ? { max_tokens: shape.max_tokens } : {}),
      ...(shape.exact_output ? { exact_output: true } : {}),
      signal: ctx.signal,
      noCache: shape.prefix === undefined,
      onToken: ctx.onToken ? (delta) => ctx.onToken!(delta) : undefined,
    });
  const now = () => performance.timeOrigin + performance.now();
  let sentAt = now();
  try {
    return { result: await attempt(instanceId), retried: false, instanceId, sent_at_ms: sentAt };
  } catch (err) {
    if (!isModelUnloaded(err) || ctx.signal.aborted) throw err;
    const id = await ctx.reload();
    sentAt = now();
    return { result: await attempt(id), retried: true, instanceId: id, sent_at_ms: sentAt };
  }
}

/**
 * Loads `model` and returns its instance id and a context measuring it with fresh nonces, no
 * abort and no reload (the measurement benchmark and its end-to-end test).
 */
export async function loadForMeasuring(
  backend: Backend,
  config: Config,
  model: string,
): Promise<{ id: string; ctx: MeasureContext }> {
  const { instance_id: id } = await backend.load(model, {
    context_length: config.context_length,
    ...config.load,
  });
  const ctx: MeasureContext = {
    backend,
    config,
    signal: new AbortController().signal,
    nonce: randomNonce,
    reload: () => Promise.resolve(id),
  };
  return { id, ctx };
}
