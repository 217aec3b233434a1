/**
 * OpenAI-compatible routes of the doubles: `GET /v1/models` and `POST /v1/chat/completions`
 * (plain or streamed as `data:` chunks ending in `[DONE]`, usage with
 * `stream_options.include_usage`). The `llamacpp` flavour adds llama.cpp's `timings`.
 *
 * @module
 */

import { dataEvent, DropConnection, json, pause, sseResponse } from "./_lmstudio_http.ts";
import { DoubleError, type DoubleState, type PreparedChat } from "./_lmstudio_state.ts";

/** Which server the routes imitate. */
export type OpenAiFlavour = "lmstudio" | "llamacpp";

/** An OpenAI-style error response. */
export function openAiError(err: unknown, flavour: OpenAiFlavour): Response {
  const e = err instanceof DoubleError ? err : new DoubleError(500, "internal_error", String(err));
  const type = e.status < 500 ? "invalid_request_error" : "server_error";
  const error: Record<string, unknown> = flavour === "llamacpp"
    ? { code: e.status, message: e.message, type }
    : { message: e.message, type, param: e.param ?? null, code: e.code ?? null };
  return json({ error }, e.status);
}

/** `GET /v1/models`. */
export function openAiModels(state: DoubleState): Response {
  const data = state.installed().filter((m) => m.type === "llm").map((m) => ({
    id: m.key,
    object: "model",
    owned_by: m.publisher,
  }));
  return json({ object: "list", data });
}

function timings(chat: PreparedChat, n: number): Record<string, number> {
  const promptMs = chat.gen.ttftSeconds * 1000;
  const predictedMs = (n / chat.gen.tokensPerSecond) * 1000;
  return {
    cache_n: 0,
    prompt_n: chat.gen.tokensIn,
    prompt_ms: promptMs,
    prompt_per_second: (chat.gen.tokensIn / promptMs) * 1000,
    predicted_n: n,
    predicted_ms: predictedMs,
    predicted_per_token_ms: n > 0 ? predictedMs / n : 0,
    predicted_per_second: chat.gen.tokensPerSecond,
  };
}

/** `POST /v1/chat/completions`. */
export function openAiChat(
  state: DoubleState,
  body: Record<string, unknown>,
  shutdown: AbortSignal,
  flavour: OpenAiFlavour,
): Response {
  if (typeof body.model !== "string" || !Array.isArray(body.messages)) {
    throw new DoubleError(
      400,
      "invalid_request",
      "'model' and 'messages' are required",
      "missing_required_parameter",
    );
  }
  const prompt = (body.messages as { content?: unknown }[]).map((m) => String(m.content ?? ""))
    .join("\n");
  const maxTokens = typeof body.max_tokens === "number" ? body.max_tokens : 512;
  const chat = state.prepareChat(body.model, prompt, maxTokens);
  const id = `chatcmpl-${chat.gen.tokensIn}${chat.gen.tokens.length}`;
  const created = Math.floor(Date.now() / 1000);
  const base = { id, created, model: body.model, system_fingerprint: body.model };
  const n = chat.gen.tokens.length;
  const finish = chat.gen.stopReason === "eosFound" ? "stop" : "length";
  const usage = {
    prompt_tokens: chat.gen.tokensIn,
    completion_tokens: n,
    total_tokens: chat.gen.tokensIn + n,
  };
  if (body.stream !== true) {
    if (chat.streamError !== null) throw new DoubleError(500, "unknown", chat.streamError.message);
    const res: Record<string, unknown> = {
      ...base,
      object: "chat.completion",
      choices: [{
        index: 0,
        message: { role: "assistant", content: chat.gen.tokens.join("") },
        finish_reason: finish,
      }],
      usage,
    };
    if (flavour === "llamacpp") res.timings = timings(chat, n);
    return json(res);
  }
  const includeUsage =
    (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  return sseResponse(
    async function* (signal) {
      const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
        dataEvent({
          ...base,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        });
      yield chunk({ role: "assistant", content: "" }, null);
      const failAt = chat.streamError?.afterTokens ?? Infinity;
      const dropAt = state.faults.dropStreamAfterTokens ?? Infinity;
      for (let i = 0; i < n && !signal.aborted; i++) {
        if (i >= dropAt) throw new DropConnection();
        if (i >= failAt) break;
        await pause(chat.gen.delaysMs[i]! + state.faults.slowTokensMs, signal);
        yield chunk({ content: chat.gen.tokens[i]! }, null);
      }
      if (dropAt <= n) throw new DropConnection();
      if (chat.streamError !== null) {
        yield dataEvent({ error: { message: chat.streamError.message, type: "server_error" } });
        return;
      }
      yield chunk({}, finish);
      if (includeUsage) {
        const last: Record<string, unknown> = {
          ...base,
          object: "chat.completion.chunk",
          choices: [],
          usage,
        };
        if (flavour === "llamacpp") last.timings = timings(chat, n);
        yield dataEvent(last);
      }
      yield dataEvent("[DONE]");
    },
    shutdown,
    state.faults.burstStream,
  );
}
