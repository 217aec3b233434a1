/**
 * The command line of `llama-server` in router mode (no `-m`; `--models-dir` instead). Every flag
 * other than host and port is inherited by the per-model child servers the router spawns.
 *
 * @module
 */

/** Inputs of {@linkcode routerArgs}. */
export interface RouterArgsInput {
  /** Folder of GGUF files; each `<name>.gguf` becomes model id `<name>`. */
  modelsDir: string;
  /** Loopback address. */
  host: string;
  /** TCP port (already chosen, not 0). */
  port: number;
  /** CPU threads per model (`-t`). */
  threads: number;
  /** Context size per model (`-c`). */
  ctxSize: number;
  /** Parallel slots per model (`-np`). */
  parallel: number;
  /** Models loaded at once (`--models-max`). */
  modelsMax: number;
  /** Load on first request (`--models-autoload` / `--no-models-autoload`). */
  autoload: boolean;
  /** Extra flags appended last. */
  extraArgs: string[];
}

/**
 * Builds the argument list.
 *
 * @throws {RangeError} for a port, thread count, context size or slot count out of range
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { routerArgs } from "./router_args.ts";
 * const args = routerArgs({
 *   modelsDir: "/m", host: "127.0.0.1", port: 8080, threads: 2, ctxSize: 512, parallel: 1,
 *   modelsMax: 2, autoload: true, extraArgs: [],
 * });
 * assert.ok(args.includes("--models-dir"));
 * ```
 */
export function routerArgs(input: RouterArgsInput): string[] {
  const positive = (name: string, value: number) => {
    if (!Number.isInteger(value) || value <= 0) {
      throw new RangeError(`Cannot start llama-server: '${name}' must be a positive integer`);
    }
  };
  positive("port", input.port);
  if (input.port > 65535) throw new RangeError("Cannot start llama-server: 'port' above 65535");
  positive("threads", input.threads);
  positive("ctxSize", input.ctxSize);
  positive("parallel", input.parallel);
  if (!Number.isInteger(input.modelsMax) || input.modelsMax < 0) {
    throw new RangeError("Cannot start llama-server: 'modelsMax' must be 0 (unlimited) or more");
  }
  return [
    "--models-dir",
    input.modelsDir,
    "--host",
    input.host,
    "--port",
    String(input.port),
    "-c",
    String(input.ctxSize),
    "-t",
    String(input.threads),
    "-np",
    String(input.parallel),
    "--models-max",
    String(input.modelsMax),
    input.autoload ? "--models-autoload" : "--no-models-autoload",
    "--no-webui",
    ...input.extraArgs,
  ];
}
