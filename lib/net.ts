/**
 * Local network addresses: their bare and URL forms, whether a listen address is loopback only, and
 * a free TCP port on one.
 *
 * @module
 */

/**
 * A host name or address without the brackets of an IPv6 literal, as sockets and programs take it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bareHost } from "./net.ts";
 * assert.equal(bareHost("[::1]"), "::1");
 * assert.equal(bareHost("localhost"), "localhost");
 * ```
 */
export function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, "$1");
}

/**
 * A host as it stands in a URL or a `host:port`: an IPv6 address bracketed, once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { urlHost } from "./net.ts";
 * assert.equal(urlHost("::1"), "[::1]");
 * assert.equal(urlHost("[::1]"), "[::1]");
 * assert.equal(urlHost("127.0.0.1"), "127.0.0.1");
 * ```
 */
export function urlHost(host: string): string {
  const bare = bareHost(host);
  return bare.includes(":") ? `[${bare}]` : bare;
}

/**
 * Whether a listen address only accepts local connections: `localhost`, `::1` (bracketed or
 * not) or any `127.x.x.x`, in any case.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLoopback } from "./net.ts";
 * assert.ok(isLoopback("127.0.0.1") && isLoopback("[::1]") && isLoopback("LOCALHOST"));
 * assert.ok(!isLoopback("0.0.0.0") && !isLoopback("192.168.1.2") && !isLoopback("127.example"));
 * ```
 */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Binds port 0 on `host`, reads the port the OS chose, and releases it. Another process could take
 * the port before the caller binds it, so callers retry on a bind failure.
 *
 * @param host loopback address to bind. @default "127.0.0.1"
 * @returns a port that was free a moment ago
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findFreePort } from "./net.ts";
 * assert.ok((await findFreePort()) > 0);
 * ```
 */
export function findFreePort(host = "127.0.0.1"): Promise<number> {
  const listener = Deno.listen({ hostname: host, port: 0, transport: "tcp" });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return Promise.resolve(port);
}
