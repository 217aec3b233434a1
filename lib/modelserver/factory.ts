/**
 * Builds the backend the configuration asks for.
 *
 * @module
 */

import { badRequest } from "../error.ts";
import type { Logger } from "../log.ts";
import type { Backend, BackendKind } from "./backend.ts";
import { LmStudioRestClient } from "./lmstudio_rest.ts";
import { LmStudioSdkClient, probeSdkVersion } from "./lmstudio_sdk.ts";
import { OpenAiClient } from "./openai.ts";
import type { WaitReporter } from "./timeout.ts";

/** Options of {@linkcode createBackend}. */
export interface BackendOptions {
  backend: BackendKind;
  /** @default "127.0.0.1" */
  host?: string;
  /** @default 1234 */
  port?: number;
  /** Full base URL (OpenAI-compatible servers); overrides host and port. */
  base_url?: string | null;
  /** Bearer token (REST, OpenAI) or `sk-lm-ID:KEY` (SDK). @default null */
  api_token?: string | null;
  /** Silence allowed between the bytes of an answer and for a model load. @default 300_000 */
  timeout_ms?: number;
  /** Silence allowed before the first byte of an answer. @default min(60_000, timeout_ms) */
  first_byte_ms?: number;
  /** Told while a call waits for the server (the "waiting for the server…" line). */
  on_wait?: WaitReporter;
  /** Fetch replacement (tests). */
  fetch?: typeof fetch;
  /** REST: chain chats with `previous_response_id`. @default false */
  stateful?: boolean;
  /** REST: in-memory response cache. @default false */
  cache?: boolean;
  logger?: Logger;
}

/**
 * Creates a backend.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createBackend } from "./factory.ts";
 * const b = createBackend({ backend: "rest", host: "127.0.0.1", port: 1234 });
 * assert.equal(b.describe(), "LM Studio REST at http://127.0.0.1:1234");
 * ```
 */
export function createBackend(options: BackendOptions): Backend {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 1234;
  const token = options.api_token ?? null;
  const baseUrl = options.base_url ?? `http://${host}:${port}`;
  const http = {
    baseUrl,
    token,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeout_ms === undefined ? {} : { timeoutMs: options.timeout_ms }),
    ...(options.first_byte_ms === undefined ? {} : { firstByteMs: options.first_byte_ms }),
    ...(options.on_wait ? { onWait: options.on_wait } : {}),
  };
  switch (options.backend) {
    case "rest": {
      const u = new URL(baseUrl);
      return new LmStudioRestClient({
        ...http,
        stateful: options.stateful ?? false,
        cache: options.cache ?? false,
        versionProbe: () => probeSdkVersion(u.hostname, Number(u.port || 80), token),
      });
    }
    case "sdk": {
      const u = new URL(baseUrl);
      return new LmStudioSdkClient({
        host: u.hostname,
        port: Number(u.port || 80),
        token,
        ...(options.timeout_ms === undefined ? {} : { timeoutMs: options.timeout_ms }),
        ...(options.first_byte_ms === undefined ? {} : { firstByteMs: options.first_byte_ms }),
        ...(options.on_wait ? { onWait: options.on_wait } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      });
    }
    case "openai":
      return new OpenAiClient(http);
    default:
      throw badRequest(
        `Cannot create a backend of kind '${options.backend as string}': use sdk, rest or openai`,
      );
  }
}
