/**
 * Consumes the server-sent events of `POST /api/v1/chat` (`stream:true`) into a chat result:
 * text from `message.delta`, client timings, official `chat.end` stats mapped to the seed's names,
 * `response_id` from `chat.end`, and errors from `error` events or a stream cut short.
 *
 * @module
 */

import { UpstreamError } from "../error.ts";
import type { ChatResult } from "./backend.ts";
import { droppedStreamError, serverMessageError } from "./errors.ts";
import type { RestChatResult } from "./lmstudio_rest_types.ts";
import { statsFromRest } from "./lmstudio_rest_types.ts";
import type { SseEvent } from "./sse.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** What the consumer needs besides the events. */
export interface RestStreamContext {
  /** `performance.now()` when the request was sent. */
  t0: number;
  /** `host:port`, for messages. */
  where: string;
  /** Called with every message delta and the client time in ms. */
  onToken?: (delta: string, tMs: number) => void;
  /** @default performance.now */
  now?: () => number;
}

function parseData(ev: SseEvent): Record<string, unknown> | null {
  try {
    const v = JSON.parse(ev.data);
    return isPlainObject(v) ? v : null;
  } catch {
    return null;
  }
}

function outputText(result: RestChatResult, type: "message" | "reasoning"): string {
  return (result.output ?? []).filter((o) => o.type === type).map((o) => o.content ?? "").join("");
}

/**
 * Reads the whole stream and builds the result; throws on an `error` event (even when `chat.end`
 * follows it) and when the stream ends without `chat.end`.
 */
export async function consumeRestChat(
  events: AsyncIterable<SseEvent>,
  ctx: RestStreamContext,
): Promise<ChatResult> {
  let text = "";
  let reasoning = "";
  const now = ctx.now ?? (() => performance.now());
  let ttft: number | null = null;
  let last: number | null = null;
  let firstRead = 0;
  let deltas = 0;
  const times: number[] = [];
  let loadSeconds: number | null = null;
  let error: { message: string; code?: string } | null = null;
  let end: RestChatResult | null = null;
  for await (const ev of events) {
    const data = parseData(ev);
    if (data === null) continue;
    const type = typeof data.type === "string" ? data.type : ev.event;
    if (type === "message.delta" || type === "reasoning.delta") {
      const content = typeof data.content === "string" ? data.content : "";
      const t = (ev.readAt ?? now()) - ctx.t0;
      if (ttft === null) ttft = t;
      if (t === ttft) firstRead++;
      last = t;
      deltas++;
      times.push(t);
      if (type === "message.delta") {
        text += content;
        ctx.onToken?.(content, t);
      } else reasoning += content;
    } else if (type === "model_load.end" && typeof data.load_time_seconds === "number") {
      loadSeconds = data.load_time_seconds;
    } else if (type === "error") {
      const e = (data.error ?? {}) as { message?: unknown; type?: unknown; code?: unknown };
      error = {
        message: typeof e.message === "string" ? e.message : "unknown error",
        code: typeof e.code === "string" ? e.code : typeof e.type === "string" ? e.type : undefined,
      };
    } else if (type === "chat.end") {
      end = (data.result ?? null) as RestChatResult | null;
    }
  }
  const totalMs = now() - ctx.t0;
  if (error !== null) throw serverMessageError(error.message, { code: error.code });
  if (end === null) {
    throw droppedStreamError(ctx.where, "the stream ended before the chat.end event");
  }
  if (typeof end.stats !== "object" || end.stats === null) {
    throw new UpstreamError("Cannot read chat.end: it carries no stats", {
      code: "bad_response",
    });
  }
  const stats = statsFromRest(end.stats);
  if (stats.model_load_time_ms === null && loadSeconds !== null) {
    stats.model_load_time_ms = loadSeconds * 1000;
  }
  if (text === "") text = outputText(end, "message") || reasoning || outputText(end, "reasoning");
  return {
    text,
    stats,
    client: {
      ttft_ms: ttft,
      last_token_ms: last,
      first_read_tokens: firstRead,
      total_ms: totalMs,
      tokens_out: deltas,
      token_times_ms: times,
    },
    response_id: end.response_id ?? null,
  };
}
