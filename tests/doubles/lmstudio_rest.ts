/**
 * The LM Studio REST v1 double: `GET /api/v1/models`, `POST /api/v1/models/load|unload|download`,
 * `GET /api/v1/models/download/status/:job_id`, `POST /api/v1/chat` (JSON or SSE), the OpenAI
 * `/v1` routes and `/lmstudio-greeting`, with bearer-token checks and injectable faults. Use it
 * in-process as a `fetch` replacement or behind `Deno.serve` (see `lmstudio_server.ts`).
 *
 * @module
 */

import { type CatalogueModel, variantKey } from "./_lmstudio_catalogue.ts";
import { checkToken, errorResponse, inProcessFetch, json } from "./_lmstudio_http.ts";
import { openAiChat, openAiError, openAiModels } from "./_lmstudio_openai.ts";
import { restChat } from "./_lmstudio_rest_chat.ts";
import {
  DoubleError,
  DoubleState,
  type DoubleState as State,
  type DoubleStateOptions,
  type DownloadJob,
  type Faults,
} from "./_lmstudio_state.ts";

export { DoubleError, DoubleState };
export type { DoubleStateOptions, Faults };

/** Options of {@linkcode createLmStudioDouble}. */
export interface LmStudioDoubleOptions extends DoubleStateOptions {
  /** Require `Authorization: Bearer <token>`. @default null */
  token?: string | null;
  /** Share state with another double (e.g. the SDK double on the same port). */
  state?: DoubleState;
}

/** An in-process double. */
export interface LmStudioDouble {
  /** Answers one request (also usable as `fetch`: see {@linkcode LmStudioDouble.fetch}). */
  handler: (req: Request) => Promise<Response>;
  /** A `fetch` that calls the handler without a socket. */
  fetch: typeof fetch;
  state: DoubleState;
  faults: Faults;
  /** Ends open streams and releases requests held by `neverAnswer`. */
  close(): void;
}

/** The official REST entry of a catalogue model, with its loaded instances. */
export function restModel(m: CatalogueModel, state: State): Record<string, unknown> {
  const selected = m.variants[0]!;
  const entry: Record<string, unknown> = {
    type: m.type,
    publisher: m.publisher,
    key: m.key,
    display_name: m.display_name,
  };
  if (m.type === "llm") entry.architecture = m.architecture;
  entry.quantization = { name: selected.name, bits_per_weight: selected.bits };
  entry.size_bytes = selected.size_bytes;
  entry.params_string = m.params_string;
  entry.loaded_instances = state.instancesOf(m.key).map((i) => ({
    id: i.id,
    config: { ...i.config },
  }));
  entry.max_context_length = m.max_context_length;
  entry.format = m.format;
  if (m.type === "llm") {
    entry.capabilities = {
      vision: m.vision,
      trained_for_tool_use: m.trained_for_tool_use,
      ...(m.reasoning ? { reasoning: { allowed_options: ["off", "on"], default: "on" } } : {}),
    };
  }
  entry.description = null;
  entry.variants = m.variants.map((v) => variantKey(m, v));
  entry.selected_variant = variantKey(m, selected);
  return entry;
}

function downloadBody(job: DownloadJob): Record<string, unknown> {
  const body: Record<string, unknown> = {
    job_id: job.job_id,
    status: job.status,
    total_size_bytes: job.total,
    downloaded_bytes: job.downloaded,
    started_at: job.started_at,
  };
  if (job.status === "downloading") body.bytes_per_second = Math.ceil(job.total / 10);
  if (job.completed_at !== undefined) body.completed_at = job.completed_at;
  return body;
}

function load(state: State, body: Record<string, unknown>): Response {
  if (typeof body.model !== "string") {
    throw new DoubleError(
      400,
      "invalid_request",
      '"model" is required',
      "missing_required_parameter",
      "model",
    );
  }
  // The official body is flat; a nested `config` (older docs) is tolerated.
  const cfg = { ...(body.config as Record<string, unknown> | undefined ?? {}), ...body };
  const config: Record<string, unknown> = {};
  for (const k of ["context_length", "eval_batch_size"]) {
    if (typeof cfg[k] === "number") config[k] = cfg[k];
  }
  for (const k of ["flash_attention", "offload_kv_cache_to_gpu"]) {
    if (typeof cfg[k] === "boolean") config[k] = cfg[k];
  }
  const inst = state.load(body.model, config);
  const res: Record<string, unknown> = {
    type: inst.model.type,
    instance_id: inst.id,
    load_time_seconds: inst.model.load_seconds,
    status: "loaded",
  };
  if (body.echo_load_config === true) res.load_config = { ...config };
  return json(res);
}

function downloadStatus(state: State, url: URL, rest: string): Response {
  let jobId = rest.replace(/^\//, "") || url.searchParams.get("job_id") || "";
  const model = url.searchParams.get("model");
  if (jobId === "") {
    const jobs = [...state.jobs.values()].filter((j) =>
      model === null || j.model.key === model.split("@")[0]
    );
    jobId = jobs.at(-1)?.job_id ?? "";
  }
  return json(downloadBody(state.pollDownload(decodeURIComponent(jobId))));
}

async function route(
  state: State,
  req: Request,
  url: URL,
  shutdown: AbortSignal,
): Promise<Response> {
  const path = url.pathname;
  const method = req.method;
  const body = method === "POST"
    ? await req.json().catch(() => ({})) as Record<string, unknown>
    : {};
  state.requests.push({ method, path, authorization: req.headers.get("authorization"), body });
  if (method === "GET" && path === "/api/v1/models") {
    return json({ models: state.installed().map((m) => restModel(m, state)) });
  }
  if (method === "POST" && path === "/api/v1/models/load") return load(state, body);
  if (method === "POST" && path === "/api/v1/models/unload") {
    if (typeof body.instance_id !== "string") {
      throw new DoubleError(
        400,
        "invalid_request",
        '"instance_id" is required',
        "missing_required_parameter",
        "instance_id",
      );
    }
    state.unload(body.instance_id);
    return json({ instance_id: body.instance_id });
  }
  if (method === "POST" && path === "/api/v1/models/download") {
    const job = state.startDownload(String(body.model ?? ""));
    return json(
      job === "already_downloaded" ? { status: "already_downloaded" } : downloadBody(job),
    );
  }
  if (method === "GET" && path.startsWith("/api/v1/models/download/status")) {
    return downloadStatus(state, url, path.slice("/api/v1/models/download/status".length));
  }
  if (method === "POST" && path === "/api/v1/chat") return restChat(state, body, shutdown);
  if (method === "GET" && path === "/v1/models") return openAiModels(state);
  if (method === "POST" && path === "/v1/chat/completions") {
    try {
      return openAiChat(state, body, shutdown, "lmstudio");
    } catch (err) {
      return openAiError(err, "lmstudio");
    }
  }
  // LM Studio answers unknown routes with 200 (lmstudio-bug-tracker#1879).
  return json({ error: `Unexpected endpoint or method. (${method} ${path})` });
}

/**
 * Creates an in-process LM Studio REST v1 double.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createLmStudioDouble } from "./lmstudio_rest.ts";
 * const d = createLmStudioDouble({ seed: 1 });
 * const res = await d.fetch("http://double/api/v1/models");
 * assert.equal(res.status, 200);
 * await res.body?.cancel();
 * d.close();
 * ```
 */
export function createLmStudioDouble(options: LmStudioDoubleOptions = {}): LmStudioDouble {
  const state = options.state ?? new DoubleState(options);
  const token = options.token ?? null;
  const shutdown = new AbortController();
  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname === "/lmstudio-greeting") return json({ lmstudio: true });
    const denied = checkToken(req, token);
    if (denied !== null) return denied;
    if (state.faults.neverAnswer) {
      // Held until the double closes (request.signal is not used: under Deno.serve it also
      // aborts on successful responses).
      await new Promise<void>((resolve) => {
        if (shutdown.signal.aborted) return resolve();
        shutdown.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      return json({ error: { type: "unknown", message: "The double was closed" } }, 503);
    }
    try {
      return await route(state, req, url, shutdown.signal);
    } catch (err) {
      return errorResponse(err);
    }
  };
  const fetchFn = inProcessFetch(handler);
  return { handler, fetch: fetchFn, state, faults: state.faults, close: () => shutdown.abort() };
}
