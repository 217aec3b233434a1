/**
 * Asks the operating system for a free TCP port on a loopback address.
 *
 * @module
 */

/**
 * Binds port 0 on `host`, reads the port the OS chose, and releases it. Another process could take
 * the port before the caller binds it, so callers retry on a bind failure.
 *
 * @param host loopback address to bind. @default "127.0.0.1"
 * @returns a port that was free a moment ago
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findFreePort } from "./free_port.ts";
 * assert.ok((await findFreePort()) > 0);
 * ```
 */
export function findFreePort(host = "127.0.0.1"): Promise<number> {
  const listener = Deno.listen({ hostname: host, port: 0, transport: "tcp" });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return Promise.resolve(port);
}

/** Loopback host names accepted for the engine (it must never listen on other interfaces). */
export const LOOPBACK_HOSTS: readonly string[] = ["127.0.0.1", "::1", "localhost"];

/** True for a loopback host name. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host);
}
