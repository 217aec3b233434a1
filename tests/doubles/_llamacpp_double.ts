/**
 * A small llama.cpp `llama-server` double in router mode, for the OpenAI-compatible client:
 * `/health`, `/props` (`build_info`), `/v1/models`, `/models` with `status.value`,
 * `POST /models/load|unload` answering `{"success":true}`, and chat completions with `timings`.
 *
 * @module
 */

import { errorResponse, inProcessFetch, json } from "./_lmstudio_http.ts";
import { openAiChat, openAiError } from "./_lmstudio_openai.ts";
import { DoubleError, DoubleState, type DoubleStateOptions } from "./_lmstudio_state.ts";

/** An in-process llama.cpp router double. */
export interface LlamaCppDouble {
  handler: (req: Request) => Promise<Response>;
  fetch: typeof fetch;
  state: DoubleState;
  close(): void;
}

/** Creates the double; `build_info` is what `/props` reports. */
export function createLlamaCppDouble(
  options: DoubleStateOptions & { build_info?: string } = {},
): LlamaCppDouble {
  const state = new DoubleState(options);
  const shutdown = new AbortController();
  const models = () =>
    state.installed().filter((m) => m.type === "llm").map((m) => ({
      id: m.key,
      object: "model",
      owned_by: "llamacpp",
      status: { value: state.instancesOf(m.key).length > 0 ? "loaded" : "unloaded" },
    }));
  const handler = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST"
      ? await req.json().catch(() => ({})) as Record<string, unknown>
      : {};
    state.requests.push({
      method: req.method,
      path,
      authorization: req.headers.get("authorization"),
      body,
    });
    try {
      if (path === "/health") return json({ status: "ok" });
      if (path === "/props") {
        return json({ build_info: options.build_info ?? "b6500-de3ff81", total_slots: 1 });
      }
      if (path === "/v1/models" || path === "/models") {
        return json({ object: "list", data: models() });
      }
      if (path === "/models/load" || path === "/models/unload") {
        const ref = String(body.model ?? "");
        if (state.findModel(ref) === null) {
          throw new DoubleError(400, "invalid_request", `model '${ref}' not found`);
        }
        if (path === "/models/load") {
          // The real router refuses to load a model twice.
          if (state.instancesOf(ref).length > 0) {
            throw new DoubleError(400, "invalid_request", "model is already running");
          }
          state.load(ref);
        } else for (const i of state.instancesOf(ref)) state.unload(i.id);
        return json({ success: true });
      }
      if (path === "/v1/chat/completions") {
        return openAiChat(state, body, shutdown.signal, "llamacpp");
      }
      return json(
        { error: { code: 404, message: "File Not Found", type: "not_found_error" } },
        404,
      );
    } catch (err) {
      return err instanceof DoubleError ? openAiError(err, "llamacpp") : errorResponse(err);
    }
  };
  const fetchFn = inProcessFetch(handler);
  return { handler, fetch: fetchFn, state, close: () => shutdown.abort() };
}
