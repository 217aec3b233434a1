/**
 * The LM Studio double as a server: REST v1, the `/v1` OpenAI routes and the SDK WebSocket
 * protocol on one loopback port, as LM Studio does. In-process: {@linkcode startLmStudioDouble}.
 * Standalone: `deno task lmstudio-double --port N [--token T] [--host H] [--seed S]
 * [--token-delay-ms MS]` prints `listening on http://HOST:PORT` once ready.
 *
 * @module
 */

import { parseOptions } from "../../lib/args.ts";
import { print } from "../../lib/log.ts";
import {
  createLmStudioDouble,
  type DoubleState,
  type Faults,
  type LmStudioDoubleOptions,
} from "./lmstudio_rest.ts";
import { createSdkDouble } from "./lmstudio_sdk.ts";

/** Options of {@linkcode startLmStudioDouble}. */
export interface StartLmStudioDoubleOptions extends LmStudioDoubleOptions {
  /** 0 = chosen by the OS. @default 0 */
  port?: number;
  /** @default "127.0.0.1" */
  hostname?: string;
}

/** A running double. */
export interface RunningLmStudioDouble {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `ws://127.0.0.1:PORT` (the SDK's `baseUrl`). */
  wsUrl: string;
  hostname: string;
  port: number;
  state: DoubleState;
  faults: Faults;
  /** Ends streams and sockets, then stops listening. */
  close(): Promise<void>;
}

/**
 * Starts the double on a loopback port.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startLmStudioDouble } from "./lmstudio_server.ts";
 * const d = await startLmStudioDouble({ port: 0 });
 * const res = await fetch(`${d.url}/lmstudio-greeting`);
 * assert.equal((await res.json()).lmstudio, true);
 * await d.close();
 * ```
 */
export function startLmStudioDouble(
  options: StartLmStudioDoubleOptions = {},
): Promise<RunningLmStudioDouble> {
  const rest = createLmStudioDouble(options);
  const sdk = createSdkDouble({ state: rest.state, token: options.token ?? null });
  const hostname = options.hostname ?? "127.0.0.1";
  return new Promise((resolve) => {
    const server = Deno.serve(
      {
        hostname,
        port: options.port ?? 0,
        onListen: (addr) => {
          const port = addr.port;
          resolve({
            url: `http://${hostname}:${port}`,
            wsUrl: `ws://${hostname}:${port}`,
            hostname,
            port,
            state: rest.state,
            faults: rest.faults,
            close: async () => {
              rest.close();
              sdk.close();
              await server.shutdown();
            },
          });
        },
      },
      (req) =>
        req.headers.get("upgrade")?.toLowerCase() === "websocket"
          ? sdk.upgrade(req)
          : rest.handler(req),
    );
  });
}

if (import.meta.main) {
  const { values: v } = parseOptions({
    args: Deno.args,
    options: {
      port: { type: "string", default: "1234" },
      host: { type: "string", default: "127.0.0.1" },
      token: { type: "string" },
      seed: { type: "string" },
      "token-delay-ms": { type: "string", default: "20" },
    },
  });
  const d = await startLmStudioDouble({
    port: Number(v.port),
    hostname: v.host,
    token: v.token ?? null,
    tokenDelayMs: Number(v["token-delay-ms"]),
    ...(v.seed === undefined ? {} : { seed: Number(v.seed) }),
  });
  print(`listening on ${d.url}`);
  const stop = async () => {
    await d.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}
