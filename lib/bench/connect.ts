/**
 * Finding the model server: the first configured port that answers (the others are tried in
 * order); when none does and LM Studio's `lms` is installed, `lms server start` and a wait of up
 * to 60 s; otherwise a clear error saying how to point the tool elsewhere.
 *
 * @module
 */
import { backendOf, type Config } from "../config/mod.ts";
import { AppError, UnreachableError, UpstreamError, UpstreamTimeoutError } from "../error.ts";
import {
  authError,
  type Backend,
  type BackendOptions,
  ensureLmsServer,
  hostPortOf,
  isAuthError,
  isConnectionRefused,
  LmsCli,
  type ProbeResult,
  probeServer,
  type WaitReporter,
  wrongServerError,
} from "../modelserver/mod.ts";

/** What connecting needs. */
export interface ConnectDeps {
  createBackend(options: BackendOptions): Backend;
  /** LM Studio's command, or null when it is not installed. */
  lms: LmsCli | null;
  /** Called with a line to show the user. */
  note(message: string): void;
  /** Wait for `lms server start`. @default 60_000 */
  startTimeoutMs?: number;
  /** Asks a server that answered wrongly what it is. @default probeServer */
  probe?: (baseUrl: string, token: string | null) => Promise<ProbeResult>;
}

/** How long to wait for the server (`--request-timeout`), and who hears about waits. */
export interface ConnectTimeouts {
  /** Silence allowed in any answer (first byte included); null: 60 s first byte, 300 s after. */
  requestMs?: number | null;
  /** Told while a call waits (the "waiting for the server…" line). */
  onWait?: WaitReporter;
}

/**
 * Whether the backend answers: true when it lists models, false when nothing listens there. Any
 * other failure becomes one sentence that says what to do (token, backend, address, timeout).
 */
async function answers(
  backend: Backend,
  baseUrl: string,
  config: Config,
  deps: ConnectDeps,
): Promise<boolean> {
  try {
    await backend.listModels();
    return true;
  } catch (err) {
    if (err instanceof UnreachableError || isConnectionRefused(err)) return false;
    if (!(err instanceof AppError) || err instanceof UpstreamTimeoutError) throw err;
    // The server answered 400 to a listing: a model server that refuses something, not a
    // wrong server (its message says what).
    if (err instanceof UpstreamError && err.upstreamStatus === 400) throw err;
    const token = config.modelserver.api_token ?? null;
    if (isAuthError(err)) throw authError(hostPortOf(baseUrl), token !== null && token !== "");
    const probe = await (deps.probe ?? ((url, t) => probeServer(url, { token: t })))(
      baseUrl,
      token,
    );
    throw wrongServerError(backendOf(config), baseUrl, probe, err);
  }
}

/** Connects to the configured model server and returns a backend that answers. */
export async function connect(
  config: Config,
  deps: ConnectDeps,
  timeouts: ConnectTimeouts = {},
): Promise<Backend> {
  const kind = backendOf(config);
  const ms = config.modelserver;
  const base = {
    backend: kind,
    api_token: ms.api_token,
    ...(timeouts.requestMs ? { timeout_ms: timeouts.requestMs } : {}),
    ...(timeouts.requestMs ? { first_byte_ms: timeouts.requestMs } : {}),
    ...(timeouts.onWait ? { on_wait: timeouts.onWait } : {}),
  };
  if (ms.base_url) {
    const backend = deps.createBackend({ ...base, base_url: ms.base_url });
    try {
      if (await answers(backend, ms.base_url, config, deps)) return backend;
    } catch (err) {
      await backend.close();
      throw err;
    }
    await backend.close();
    throw notReachable(config, [ms.base_url]);
  }
  const tried: string[] = [];
  for (const port of ms.ports) {
    const backend = deps.createBackend({ ...base, host: ms.host, port });
    const url = `http://${ms.host}:${port}`;
    try {
      if (await answers(backend, url, config, deps)) return backend;
    } catch (err) {
      await backend.close();
      throw err;
    }
    await backend.close();
    tried.push(`${ms.host}:${port}`);
  }
  if (kind !== "openai" && deps.lms) {
    const port = ms.ports[0]!;
    deps.note(
      `No model server answers at ${tried.join(", ")}: starting it with 'lms server start'`,
    );
    const backend = deps.createBackend({ ...base, host: ms.host, port });
    await ensureLmsServer(deps.lms, {
      isUp: () => answers(backend, `http://${ms.host}:${port}`, config, deps),
      port,
      timeoutMs: deps.startTimeoutMs ?? 60_000,
    });
    return backend;
  }
  throw notReachable(config, tried);
}

function notReachable(config: Config, tried: string[]): AppError {
  const kind = backendOf(config);
  const what = kind === "openai" ? "an OpenAI-compatible server" : "LM Studio";
  return new UnreachableError(
    `Cannot reach ${what} at ${
      tried.join(" or ")
    }: nothing answers there. Start the model server ` +
      `(LM Studio: 'lms server start'), or point the tool elsewhere with --base-url URL ` +
      `(and --backend openai for llama.cpp, vLLM or Ollama), or set modelserver.host and ` +
      `modelserver.ports in defaults.json of the user config folder`,
  );
}

/** LM Studio's `lms` when it is installed and the backend is LM Studio's, else null. */
export function lmsFor(config: Config): LmsCli | null {
  if (backendOf(config) === "openai") return null;
  const cli = new LmsCli();
  return cli.locate() === null ? null : cli;
}
