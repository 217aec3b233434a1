/**
 * Consumes an OpenAI-compatible chat-completions stream (`data:` chunks, `[DONE]`): text deltas,
 * client timings, `usage` (with `stream_options.include_usage`) and llama.cpp `timings`.
 *
 * @module
 */

import type { ChatResult, ChatStats } from "./backend.ts";
import { droppedStreamError, serverMessageError } from "./errors.ts";
import { isDoneEvent, type SseEvent } from "./sse.ts";

/** llama.cpp's non-standard `timings`. */
export interface LlamaCppTimings {
  cache_n?: number;
  prompt_n?: number;
  prompt_ms?: number;
  prompt_per_second?: number;
  predicted_n?: number;
  predicted_ms?: number;
  predicted_per_token_ms?: number;
  predicted_per_second?: number;
}

interface Chunk {
  choices?: {
    delta?: { content?: string | null; reasoning_content?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  timings?: LlamaCppTimings;
  error?: { message?: string; code?: unknown; type?: string } | string;
}

/** Stats from usage and timings; timing fields stay null when the server reports none. */
export function statsFromOpenAi(
  usage: Chunk["usage"],
  timings: LlamaCppTimings | null,
  finish: string | null,
  deltas: number,
): ChatStats {
  const promptMs = timings?.prompt_ms ?? null;
  const predictedMs = timings?.predicted_ms ?? null;
  return {
    tokens_in: usage?.prompt_tokens ?? timings?.prompt_n ?? 0,
    tokens_out: usage?.completion_tokens ?? timings?.predicted_n ?? deltas,
    time_to_first_token_ms: promptMs,
    total_time_ms: promptMs !== null && predictedMs !== null ? promptMs + predictedMs : null,
    tokens_per_second: timings?.predicted_per_second ?? null,
    stop_reason: finish,
    prompt_ms: promptMs,
    predicted_ms: predictedMs,
    ...(typeof timings?.cache_n === "number" ? { cached_tokens: timings.cache_n } : {}),
  };
}

type Choice = NonNullable<Chunk["choices"]>[number];

/**
 * Whether a chunk carries a generated token: a text delta, or an empty delta in mid-stream (a
 * token that decoded to no text yet). Not the role preamble (`{role, content: null | ""}`) nor
 * the closing chunk with the finish reason.
 */
export function carriesToken(choice: Choice | undefined): boolean {
  if (!choice?.delta) return false;
  const delta = choice.delta;
  const text = delta.content ?? delta.reasoning_content;
  if (typeof text === "string" && text !== "") return true;
  if ("role" in delta || choice.finish_reason) return false;
  return typeof text === "string" || Object.keys(delta).length === 0;
}

/** Reads a chat-completions stream into a result; throws on an `error` chunk or a cut stream. */
export async function consumeOpenAiChat(
  events: AsyncIterable<SseEvent>,
  ctx: {
    t0: number;
    where: string;
    onToken?: (delta: string, tMs: number) => void;
    /** @default performance.now */
    now?: () => number;
  },
): Promise<ChatResult> {
  const now = ctx.now ?? (() => performance.now());
  let text = "";
  let ttft: number | null = null;
  let last: number | null = null;
  let firstRead = 0;
  let deltas = 0;
  const times: number[] = [];
  let usage: Chunk["usage"] = null;
  let timings: LlamaCppTimings | null = null;
  let finish: string | null = null;
  let done = false;
  for await (const ev of events) {
    if (isDoneEvent(ev)) {
      done = true;
      break;
    }
    let chunk: Chunk;
    try {
      chunk = JSON.parse(ev.data) as Chunk;
    } catch {
      continue;
    }
    if (chunk.error !== undefined) {
      const e = chunk.error;
      throw serverMessageError(typeof e === "string" ? e : e.message ?? "unknown error");
    }
    if (chunk.usage) usage = chunk.usage;
    if (chunk.timings) timings = chunk.timings;
    const choice = chunk.choices?.[0];
    if (choice?.finish_reason) finish = choice.finish_reason;
    if (carriesToken(choice)) {
      const t = (ev.readAt ?? now()) - ctx.t0;
      if (ttft === null) ttft = t;
      if (t === ttft) firstRead++;
      last = t;
      deltas++;
      times.push(t);
      if (choice?.delta?.content) {
        text += choice.delta.content;
        ctx.onToken?.(choice.delta.content, t);
      }
    }
  }
  if (!done && finish === null) {
    throw droppedStreamError(ctx.where, "the stream ended before [DONE]");
  }
  return {
    text,
    stats: statsFromOpenAi(usage, timings, finish, deltas),
    client: {
      ttft_ms: ttft,
      last_token_ms: last,
      first_read_tokens: firstRead,
      total_ms: now() - ctx.t0,
      tokens_out: deltas,
      token_times_ms: times,
    },
    response_id: null,
  };
}
