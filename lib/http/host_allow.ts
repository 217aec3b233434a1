/**
 * The Host allow-list (DNS rebinding): a server answers only to the names of its listen address
 * and to the names its user adds. A page served from a rebinding name reaches the server with
 * its own name in `Host`, so it gets a 403 before any route runs.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { ForbiddenError, UsageError } from "../error.ts";
import { urlHost } from "../net.ts";

/** Names every loopback listener answers to. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"];

/** Whether a listen address is a wildcard (every interface). */
export function isWildcard(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "");
  return h === "0.0.0.0" || h === "::" || h === "";
}

/** The host name of a `Host` header value: lower case, no port, no brackets, no final dot. */
export function hostNameOf(host: string): string {
  const h = host.trim().toLowerCase();
  const name = h.startsWith("[") ? h.slice(1, h.indexOf("]")) : h.replace(/:\d*$/, "");
  return name.replace(/\.$/, "");
}

/** A well-formed `Host`: a name or IPv4 address, or a bracketed IPv6 address; then an optional port. */
const HOST_SYNTAX = /^(?:[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The host name of a `Host` header value when it is well formed — `name`, `name:port`, `[v6]`
 * or `[v6]:port` (a port of 1 to 65535, no blanks, nothing after) — as {@linkcode hostNameOf}
 * gives it; null otherwise (empty, `[::1]anything`, `name:80x`, a blank inside).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHost } from "./host_allow.ts";
 * assert.equal(parseHost("[::1]:8080"), "::1");
 * assert.equal(parseHost("[::1]anything"), null);
 * assert.equal(parseHost(""), null);
 * ```
 */
export function parseHost(host: string): string | null {
  if (!HOST_SYNTAX.test(host)) return null;
  const port = /:(\d+)$/.exec(host.startsWith("[") ? host.slice(host.indexOf("]")) : host)?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  try {
    new URL(`http://${host}/`);
  } catch {
    return null;
  }
  return hostNameOf(host);
}

/** What {@linkcode listenHostNames} asks of the machine (injected for tests). */
export interface MachineNames {
  /** Addresses of the network interfaces. */
  addresses(): string[];
  /** The machine's host name. */
  hostname(): string;
}

/** The machine's names through Deno; empty where the permission is missing. */
export const denoMachineNames: MachineNames = {
  addresses() {
    try {
      return Deno.networkInterfaces().map((i) => i.address);
    } catch {
      return [];
    }
  },
  hostname() {
    try {
      return Deno.hostname();
    } catch {
      return "";
    }
  },
};

/** Options of {@linkcode listenHostNames}. */
export interface ListenNamesOptions {
  /** Names the user adds (`--allowed-hosts`, `LOCALBENCH_ALLOWED_HOSTS`). @default [] */
  extra?: readonly string[];
  /** The machine's names. @default denoMachineNames */
  machine?: MachineNames;
}

/**
 * The names a server bound to `listen` answers to: the loopback names (always: every listener
 * is reachable from the machine itself); the address itself; for a wildcard address every
 * interface address and the machine's host name (`name` and `name.local`); and the extras.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listenHostNames } from "./host_allow.ts";
 * const names = listenHostNames("127.0.0.1", { extra: ["bench.lan"] });
 * assert.ok(names.has("localhost") && names.has("bench.lan") && !names.has("evil.example"));
 * ```
 */
export function listenHostNames(listen: string, options: ListenNamesOptions = {}): Set<string> {
  const machine = options.machine ?? denoMachineNames;
  const names = new Set<string>(LOOPBACK_NAMES);
  if (!isWildcard(listen)) names.add(hostNameOf(urlHost(listen)));
  else {
    for (const a of machine.addresses()) names.add(a.toLowerCase());
    const name = machine.hostname().toLowerCase();
    if (name !== "") names.add(name).add(`${name}.local`);
  }
  for (const e of options.extra ?? []) {
    const n = hostNameOf(e);
    if (n !== "") names.add(n);
  }
  return names;
}

/** Splits a comma-separated list of names (flag or environment); blanks dropped. */
export function parseHostList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
}

/**
 * Refuses a request whose `Host` is malformed (400, code `bad_host`: {@linkcode parseHost}) or
 * not one of `names` (403, code `host_not_allowed`). A request without `Host` (HTTP/1.0
 * clients) is judged by its URL's host; an empty `Host` is malformed.
 */
export function allowHosts(names: ReadonlySet<string>): MiddlewareHandler {
  return async function hostAllowList(c, next) {
    const given = c.req.header("Host");
    const name = parseHost(given ?? urlHostOf(c.req.url));
    if (name === null) {
      throw new UsageError("Cannot answer: the Host header is not a well-formed host", {
        code: "bad_host",
      });
    }
    if (!names.has(name)) {
      throw new ForbiddenError(
        `Cannot answer for host '${name.slice(0, 100)}': not a name of this server ` +
          `(add it with --allowed-hosts)`,
        { code: "host_not_allowed" },
      );
    }
    await next();
  };
}

/** The host part of a request URL ("" when the URL does not parse). */
function urlHostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}
