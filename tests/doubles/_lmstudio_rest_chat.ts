/**
 * `POST /api/v1/chat` of the REST v1 double: official event order (`chat.start` first,
 * `model_load.*` only on a just-in-time load, `prompt_processing.*`, `reasoning.*` for reasoning
 * models, `message.*`, `chat.end` last), `store` / `previous_response_id`, and injected faults.
 *
 * @module
 */

import { DropConnection, json, namedEvent, pause, sseResponse } from "./_lmstudio_http.ts";
import { DoubleError, type DoubleState, type PreparedChat } from "./_lmstudio_state.ts";

/** Reasoning tokens emitted by reasoning models (taken from the start of the answer). */
const REASONING_TOKENS = 4;

function inputText(input: unknown): string {
  if (typeof input === "string") return input;
  if (!Array.isArray(input)) {
    throw new DoubleError(
      400,
      "invalid_request",
      '"input" is required',
      "missing_required_parameter",
      "input",
    );
  }
  return input.map((item) => {
    const it = item as Record<string, unknown>;
    if (it.type === "image") return "[image]";
    return typeof it.content === "string" ? it.content : "";
  }).join("\n");
}

/** Handles one chat request (stream or not). */
export function restChat(
  state: DoubleState,
  body: Record<string, unknown>,
  shutdown: AbortSignal,
): Response {
  if (typeof body.model !== "string" || body.model === "") {
    throw new DoubleError(
      400,
      "invalid_request",
      '"model" is required',
      "missing_required_parameter",
      "model",
    );
  }
  const text = inputText(body.input);
  let thread = typeof body.system_prompt === "string" ? body.system_prompt + "\n" : "";
  if (typeof body.previous_response_id === "string") {
    const prev = state.responses.get(body.previous_response_id);
    if (prev === undefined) {
      throw new DoubleError(
        400,
        "invalid_request",
        `Previous response "${body.previous_response_id}" not found`,
        "invalid_previous_response_id",
        "previous_response_id",
      );
    }
    thread = prev + "\n";
  }
  const prompt = thread + text;
  const maxTokens = typeof body.max_output_tokens === "number" ? body.max_output_tokens : 512;
  const chat = state.prepareChat(body.model, prompt, maxTokens);
  const wantsReasoning = chat.instance.model.reasoning && body.reasoning !== "off";
  const nReasoning = wantsReasoning ? Math.min(REASONING_TOKENS, chat.gen.tokens.length) : 0;
  const store = body.store !== false;
  const result = (emitted: number) => {
    const tokens = chat.gen.tokens.slice(0, emitted);
    const reasoning = tokens.slice(0, nReasoning).join("");
    const message = tokens.slice(nReasoning).join("");
    const stats: Record<string, number> = {
      input_tokens: chat.gen.tokensIn,
      total_output_tokens: tokens.length,
      reasoning_output_tokens: Math.min(nReasoning, tokens.length),
      tokens_per_second: chat.gen.tokensPerSecond,
      time_to_first_token_seconds: chat.gen.ttftSeconds,
    };
    if (chat.jitLoadSeconds !== null) stats.model_load_time_seconds = chat.jitLoadSeconds;
    const output = [
      ...(nReasoning > 0 ? [{ type: "reasoning", content: reasoning }] : []),
      { type: "message", content: message },
    ];
    const res: Record<string, unknown> = { model_instance_id: chat.instance.id, output, stats };
    if (store) res.response_id = state.storeResponse(prompt + "\n" + message);
    return res;
  };
  if (body.stream !== true) {
    if (chat.streamError !== null) {
      throw new DoubleError(500, "unknown", chat.streamError.message);
    }
    return json(result(chat.gen.tokens.length));
  }
  return sseResponse(
    (signal) => state.tracked(events(state, chat, nReasoning, result, signal)),
    shutdown,
    state.faults.burstStream,
  );
}

async function* events(
  state: DoubleState,
  chat: PreparedChat,
  nReasoning: number,
  result: (emitted: number) => Record<string, unknown>,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const id = chat.instance.id;
  yield namedEvent("chat.start", { model_instance_id: id });
  if (chat.jitLoadSeconds !== null) {
    yield namedEvent("model_load.start", { model_instance_id: id });
    yield namedEvent("model_load.progress", { model_instance_id: id, progress: 0.5 });
    yield namedEvent("model_load.end", {
      model_instance_id: id,
      load_time_seconds: chat.jitLoadSeconds,
    });
  }
  const failAt = chat.streamError?.afterTokens ?? Infinity;
  const dropAt = state.faults.dropStreamAfterTokens ?? Infinity;
  if (failAt > 0) {
    yield namedEvent("prompt_processing.start", {});
    yield namedEvent("prompt_processing.progress", { progress: 0.5 });
    yield namedEvent("prompt_processing.progress", { progress: 1 });
    yield namedEvent("prompt_processing.end", {});
  }
  const tokens = chat.gen.tokens;
  let emitted = 0;
  let phase: "none" | "reasoning" | "message" = "none";
  for (; emitted < tokens.length; emitted++) {
    if (emitted >= failAt || signal.aborted) break;
    if (emitted >= dropAt) throw new DropConnection();
    await pause(chat.gen.delaysMs[emitted]! + state.faults.slowTokensMs, signal);
    const next = emitted < nReasoning ? "reasoning" : "message";
    if (phase !== next) {
      if (phase === "reasoning") yield namedEvent("reasoning.end", {});
      yield namedEvent(`${next}.start`, {});
      phase = next;
    }
    yield namedEvent(`${next}.delta`, { content: tokens[emitted]! });
  }
  if (emitted >= dropAt && dropAt <= tokens.length) throw new DropConnection();
  if (phase !== "none") yield namedEvent(`${phase}.end`, {});
  if (chat.streamError !== null) {
    yield namedEvent("error", { error: { type: "unknown", message: chat.streamError.message } });
  }
  yield namedEvent("chat.end", { result: result(emitted) });
}
