/**
 * The opt-in in-memory response cache of the REST client. The key is the MD5 of the messages,
 * the model and the temperature (seed: "Client behaviours").
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { ChatMessage, ChatResult } from "./backend.ts";

/** The cache key of a chat: MD5 hex of messages, model and temperature. */
export function cacheKey(messages: ChatMessage[], model: string, temperature: number): string {
  const text = JSON.stringify({ messages, model, temperature });
  return createHash("md5").update(text).digest("hex");
}

/** A map of chat results by {@linkcode cacheKey}. */
export class ResponseCache {
  readonly #entries = new Map<string, ChatResult>();

  /** A copy of the cached result, or null. */
  get(key: string): ChatResult | null {
    const hit = this.#entries.get(key);
    return hit === undefined ? null : structuredClone(hit);
  }

  /** Stores a copy of a result. */
  set(key: string, result: ChatResult): void {
    this.#entries.set(key, structuredClone(result));
  }

  /** Empties the cache. */
  clear(): void {
    this.#entries.clear();
  }

  /** Number of cached results. */
  get size(): number {
    return this.#entries.size;
  }
}
