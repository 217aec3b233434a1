/**
 * A thin client for llama-server's router routes: `GET /models`, `POST /models/load` and
 * `POST /models/unload`. Load and unload return at once on the server, so these helpers poll
 * `/models` until the model reaches the wanted state.
 *
 * @module
 */

import { NotFoundError, UpstreamError, UpstreamTimeoutError } from "../error.ts";
import { sleep } from "../clock.ts";

/** One entry of `GET /models`. */
export interface RouterModel {
  /** Model id (file stem of the GGUF). */
  id: string;
  /** Path of the GGUF. */
  path?: string;
  /** `unloaded`, `loading`, `loaded`, `sleeping` …; `failed` is set when loading failed. */
  status: { value: string; failed?: boolean; exit_code?: number; args?: string[] };
}

/** Options of the router helpers. */
export interface RouterOptions {
  /** Give up waiting for a state change after this long. @default 60000 */
  timeoutMs?: number;
  /** Aborts the request and the wait. */
  signal?: AbortSignal;
  /** HTTP client. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * Lists the router's models.
 *
 * @throws {UpstreamError} `router_error` when the router answers with an error
 */
export async function listRouterModels(
  baseUrl: string,
  options: RouterOptions = {},
): Promise<RouterModel[]> {
  const body = await call(baseUrl, "/models", undefined, options) as { data?: RouterModel[] };
  return body.data ?? [];
}

/** Loads `model` and waits until its status is `loaded`. @throws on error, failure or timeout */
export async function loadRouterModel(
  baseUrl: string,
  model: string,
  options: RouterOptions = {},
): Promise<RouterModel> {
  await call(baseUrl, "/models/load", { model }, options);
  return await waitForModelStatus(baseUrl, model, "loaded", options);
}

/** Unloads `model` and waits until its status is `unloaded`. @throws on error or timeout */
export async function unloadRouterModel(
  baseUrl: string,
  model: string,
  options: RouterOptions = {},
): Promise<RouterModel> {
  await call(baseUrl, "/models/unload", { model }, options);
  return await waitForModelStatus(baseUrl, model, "unloaded", options);
}

/**
 * Polls `/models` until `model` has status `want`.
 *
 * @throws {NotFoundError} `model_not_found`, {UpstreamError} `model_load_failed`, {UpstreamTimeoutError} `model_timeout`
 */
export async function waitForModelStatus(
  baseUrl: string,
  model: string,
  want: string,
  options: RouterOptions = {},
): Promise<RouterModel> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (true) {
    const found = (await listRouterModels(baseUrl, options)).find((m) => m.id === model);
    if (!found) {
      throw new NotFoundError(`Cannot find model '${model}'`, {
        code: "model_not_found",
      });
    }
    if (found.status.value === want) return found;
    if (want === "loaded" && found.status.failed) {
      throw new UpstreamError(`Cannot load model '${model}': exit code ${found.status.exit_code}`, {
        code: "model_load_failed",
      });
    }
    if (Date.now() >= deadline) {
      throw new UpstreamTimeoutError(
        `Cannot see model '${model}' ${want}: still '${found.status.value}'`,
        { code: "model_timeout" },
      );
    }
    await sleep(50, options.signal);
  }
}

async function call(
  baseUrl: string,
  path: string,
  body: unknown,
  options: RouterOptions,
): Promise<unknown> {
  const init: RequestInit = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  if (options.signal) init.signal = options.signal;
  const res = await (options.fetch ?? fetch)(baseUrl + path, init);
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Reported below.
  }
  if (!res.ok || json === null) {
    const message = (json as { error?: { message?: string } } | null)?.error?.message ??
      text.slice(0, 200);
    throw new UpstreamError(`Cannot call '${path}': ${res.status} ${message}`, {
      code: "router_error",
    });
  }
  return json;
}
