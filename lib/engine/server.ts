/**
 * Starts llama.cpp's `llama-server` in router mode on loopback over a folder of GGUF models, waits
 * until it answers, and stops it (with every per-model child it spawned) on request.
 *
 * @module
 */

import { UpstreamError } from "../error.ts";
import type { Logger } from "../log.ts";
import { requireEngine } from "./find.ts";
import { bareHost, findFreePort, isLoopback, urlHost } from "../net.ts";
import { drainOutput } from "./output_tail.ts";
import { EngineExitedError, waitForHttp } from "./ready.ts";
import { routerArgs } from "./router_args.ts";
import { stopProcessTree } from "./stop_tree.ts";
import { findOnPath } from "./which.ts";

/** Starts a process; injectable so tests can run a stand-in server. */
export type SpawnFn = (
  command: string,
  args: string[],
  env: Record<string, string>,
) => Deno.ChildProcess;

/** Options of {@linkcode startLlamaServer}. */
export interface StartLlamaServerOptions {
  /** GGUF folder for `--models-dir`. @default the engine's generated models */
  modelsDir?: string;
  /** The `llama-server` binary. @default the engine's binary (see findEngine) */
  server?: string;
  /** Port; 0 picks a free one. @default 0 */
  port?: number;
  /** Loopback address to listen on. @default "127.0.0.1" */
  host?: string;
  /** CPU threads per model. @default 2 */
  threads?: number;
  /** Context size per model (the generated models allow up to 4096). @default 2048 */
  ctxSize?: number;
  /** Parallel slots per model. @default 1 */
  parallel?: number;
  /** Models loaded at once (router `--models-max`). @default 2 */
  modelsMax?: number;
  /** Load a model on first request. @default true */
  autoload?: boolean;
  /** More command-line flags, appended last. @default [] */
  extraArgs?: string[];
  /** Stops the server when aborted. */
  signal?: AbortSignal;
  /** Give up starting after this long. @default 30000 */
  startupTimeoutMs?: number;
  /** Grace period of each SIGTERM before SIGKILL when stopping. @default 10000 */
  stopGraceMs?: number;
  /** Receives the server's output lines at debug level. */
  logger?: Logger;
  /** Process starter. @default Deno.Command with piped output */
  spawn?: SpawnFn;
}

/** A running server. */
export interface LlamaServer {
  /** Base URL, e.g. `http://127.0.0.1:41234` (OpenAI routes under `/v1`). */
  url: string;
  /** The port it listens on. */
  port: number;
  /** The router process. */
  process: Deno.ChildProcess;
  /** The server's most recent output lines. */
  output(): string[];
  /** Stops the router and every model instance; safe to call more than once. */
  stop(): Promise<void>;
  /** Same as `stop()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * The default process starter. Through util-linux `setpriv --pdeathsig SIGTERM` (when installed)
 * the server gets SIGTERM if this Deno process dies without calling `stop()` (Ctrl+C, a killed test
 * run); the router then ends its model children itself. `setpriv` execs, so the pid is the server's.
 */
export const defaultSpawn: SpawnFn = (command, args, env) => {
  const setpriv = findOnPath("setpriv");
  const [cmd, argv] = setpriv
    ? [setpriv, ["--pdeathsig", "SIGTERM", "--", command, ...args]]
    : [command, args];
  return new Deno.Command(cmd, { args: argv, env, stdin: "null", stdout: "piped", stderr: "piped" })
    .spawn();
};

/**
 * Starts `llama-server --models-dir …` and resolves once `/health` answers.
 *
 * @throws {SetupError} `engine_missing` when no binary is given and none is built; {UpstreamError}
 * `engine_exited` / {UpstreamTimeoutError} `engine_start_timeout` when it does not come up (with its last output lines)
 * @example Benchmarking against the generated models
 * ```ts ignore
 * import { startLlamaServer } from "./server.ts";
 * await using server = await startLlamaServer({ port: 0 });
 * const res = await fetch(`${server.url}/models`);
 * ```
 */
export async function startLlamaServer(
  options: StartLlamaServerOptions = {},
): Promise<LlamaServer> {
  // "[::1]" and "::1" name the same address: llama-server and the socket API take it bare.
  const host = bareHost(options.host ?? "127.0.0.1");
  if (!isLoopback(host)) {
    throw new RangeError(`Cannot start llama-server on '${host}': loopback only`);
  }
  options.signal?.throwIfAborted();
  let binary = options.server;
  let modelsDir = options.modelsDir;
  if (!binary || !modelsDir) {
    const engine = requireEngine();
    binary ??= engine.server;
    modelsDir ??= engine.modelsDir;
  }
  const attempts = options.port ? 1 : 3;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const port = options.port || await findFreePort(host);
    try {
      return await startOnce(binary, modelsDir, host, port, options);
    } catch (err) {
      // A port picked for us may have been taken in between: try another one.
      if (!(err instanceof EngineExitedError)) throw err;
      lastError = err;
    }
  }
  throw lastError;
}

async function startOnce(
  binary: string,
  modelsDir: string,
  host: string,
  port: number,
  options: StartLlamaServerOptions,
): Promise<LlamaServer> {
  const args = routerArgs({ modelsDir, host, port, ...pick(options) });
  // An empty, private LLAMA_CACHE keeps the router from listing downloaded models of the user.
  const cacheDir = await Deno.makeTempDir({ prefix: "localbench-llama-cache-" });
  const process = (options.spawn ?? defaultSpawn)(binary, args, { LLAMA_CACHE: cacheDir });
  const onLine = options.logger ? (line: string) => options.logger?.debug(line) : undefined;
  const tail = drainOutput([process.stdout, process.stderr], onLine ? { onLine } : {});
  let stopping: Promise<void> | undefined;
  const onAbort = () => void stop();
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      options.signal?.removeEventListener("abort", onAbort);
      await stopProcessTree(process, { graceMs: options.stopGraceMs ?? 10_000 });
      await tail.done;
      await Deno.remove(cacheDir, { recursive: true }).catch(() => undefined);
    })();
    return stopping;
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const url = `http://${urlHost(host)}:${port}`;
  try {
    await waitForHttp(url, {
      timeoutMs: options.startupTimeoutMs ?? 30_000,
      exited: process.status,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (err) {
    await stop();
    if (!(err instanceof UpstreamError)) throw err;
    const last = tail.lines().slice(-15).join("\n");
    const Same = err.constructor as typeof UpstreamError;
    throw new Same(`${err.message}; last output:\n${last}`, { code: err.code, cause: err });
  }
  return { url, port, process, output: tail.lines, stop, [Symbol.asyncDispose]: stop };
}

function pick(o: StartLlamaServerOptions) {
  return {
    threads: o.threads ?? 2,
    ctxSize: o.ctxSize ?? 2048,
    parallel: o.parallel ?? 1,
    modelsMax: o.modelsMax ?? 2,
    autoload: o.autoload ?? true,
    extraArgs: o.extraArgs ?? [],
  };
}
