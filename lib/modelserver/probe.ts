/**
 * What kind of server listens at an address, asked when the configured backend cannot talk to
 * it: LM Studio (`GET /lmstudio-greeting` → `{"lmstudio":true}`, what the SDK itself checks), an
 * OpenAI-compatible server (`GET /v1/models` → `{"data": [...]}`: llama.cpp, vLLM, Ollama), some
 * other web server, or something that does not answer HTTP at all. The answer turns into an error
 * sentence that says which `--backend` / `--base-url` to use.
 *
 * @module
 */
import { AppError, messageOf, UpstreamError } from "../error.ts";
import type { BackendKind } from "./backend.ts";
import { hostPortOf } from "./http.ts";

/** The kinds of server a probe tells apart. */
export type ServerKind = "lmstudio" | "openai" | "web" | "silent";

/** Outcome of {@linkcode probeServer}. */
export interface ProbeResult {
  kind: ServerKind;
  /** What the server answered to `GET /v1/models` (`HTTP 404, text/html`), for the message. */
  detail: string;
}

/** Options of {@linkcode probeServer}. */
export interface ProbeOptions {
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Per request. @default 3000 */
  timeoutMs?: number;
  /** Sent as a bearer token to `/v1/models`. */
  token?: string | null;
}

async function get(
  url: string,
  options: ProbeOptions,
): Promise<{ status: number; type: string; body: unknown } | null> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  try {
    const res = await doFetch(url, {
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      signal: AbortSignal.timeout(options.timeoutMs ?? 3000),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: a web page or plain text
    }
    return { status: res.status, type: res.headers.get("content-type") ?? "no content type", body };
  } catch {
    return null;
  }
}

/** Asks the server at `baseUrl` (http or ws) what it is. Never throws. */
export async function probeServer(
  baseUrl: string,
  options: ProbeOptions = {},
): Promise<ProbeResult> {
  const base = baseUrl.replace(/^ws/, "http").replace(/\/+$/, "").replace(/\/v1$/, "");
  const greeting = await get(`${base}/lmstudio-greeting`, options);
  if (greeting?.status === 200 && (greeting.body as { lmstudio?: unknown })?.lmstudio === true) {
    return { kind: "lmstudio", detail: "GET /lmstudio-greeting answered as LM Studio" };
  }
  const models = await get(`${base}/v1/models`, options);
  if (models === null) {
    return greeting === null
      ? { kind: "silent", detail: "no HTTP answer" }
      : { kind: "web", detail: `GET /lmstudio-greeting: HTTP ${greeting.status}` };
  }
  if (models.status === 200 && Array.isArray((models.body as { data?: unknown })?.data)) {
    return { kind: "openai", detail: "GET /v1/models answered with a model list" };
  }
  return { kind: "web", detail: `GET /v1/models: HTTP ${models.status}, ${models.type}` };
}

const NAMES: Record<BackendKind, string> = {
  sdk: "LM Studio (SDK)",
  rest: "LM Studio (REST API)",
  openai: "an OpenAI-compatible server",
};

/**
 * The error for a server that answered but not as `backend` expects, from what the probe found;
 * `original` is the failure of the backend's own first call.
 */
export function wrongServerError(
  backend: BackendKind,
  baseUrl: string,
  probe: ProbeResult,
  original: unknown,
): AppError {
  const where = hostPortOf(baseUrl.replace(/^ws/, "http"));
  const http = `http://${where}`;
  const fix = `point the tool at the model server with --base-url URL (and --backend openai for ` +
    `llama.cpp, vLLM or Ollama), or set modelserver.host and modelserver.ports`;
  let message: string;
  if (probe.kind === "openai" && backend !== "openai") {
    message = `The server at ${where} is an OpenAI-compatible server (llama.cpp, vLLM, Ollama…), ` +
      `not ${NAMES[backend]}: run with --backend openai --base-url ${http}`;
  } else if (probe.kind === "lmstudio" && backend === "rest") {
    message = `LM Studio at ${where} has no REST v1 API (it needs LM Studio 0.4.0 or later): ` +
      `update LM Studio, or leave out --use-rest-api to use the SDK`;
  } else if (probe.kind === "web") {
    message = `The server at ${where} is not a model server (${probe.detail}): ${fix}`;
  } else if (probe.kind === "silent") {
    message = `The program listening at ${where} does not answer HTTP: ${fix}`;
  } else {
    message = `Cannot talk to ${NAMES[backend]} at ${where} (${messageOf(original)}): ` +
      `check the address and --backend`;
  }
  return new UpstreamError(message, { code: "wrong_server", cause: original });
}
