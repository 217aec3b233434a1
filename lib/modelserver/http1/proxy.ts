/**
 * Whether the environment routes a URL through a proxy (`HTTP_PROXY`, `HTTPS_PROXY`,
 * `ALL_PROXY`, lower case too, minus `NO_PROXY`). The HTTP/1.1 client does not speak to proxies;
 * such a URL goes through `fetch`, which applies them as Deno documents.
 *
 * @module
 */

import type { EnvReader } from "../../config/mod.ts";
import { bareHost } from "../../net.ts";

/**
 * The process environment; a variable the process may not read counts as unset (asked without
 * a permission prompt).
 */
export function envIfAllowed(name: string): string | undefined {
  const { state } = Deno.permissions.querySync({ name: "env", variable: name });
  return state === "granted" ? Deno.env.get(name) : undefined;
}

const either = (env: EnvReader, name: string) => env(name) || env(name.toLowerCase()) || undefined;

/** Whether `NO_PROXY` names the host: `*`, the host itself, or a domain it is in. */
function exempt(hostname: string, noProxy: string): boolean {
  const host = bareHost(hostname).toLowerCase();
  return noProxy.split(/[\s,]+/).filter(Boolean).some((entry) => {
    const name = entry.toLowerCase();
    const bare = name.startsWith("[")
      ? name.replace(/^\[(.*)\](:\d+)?$/, "$1")
      : (name.match(/:/g) ?? []).length > 1
      ? name // an IPv6 address without brackets
      : name.replace(/:\d+$/, "");
    const e = bare.replace(/^\*?\./, ".");
    if (e === "*") return true;
    if (e.startsWith(".")) return host.endsWith(e) || host === e.slice(1);
    return host === e;
  });
}

/** Whether a request to `url` would be sent through a proxy by `fetch`. */
export function proxied(url: URL, env: EnvReader = envIfAllowed): boolean {
  const proxy = either(env, url.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY") ??
    either(env, "ALL_PROXY");
  if (proxy === undefined) return false;
  const noProxy = either(env, "NO_PROXY");
  return noProxy === undefined || !exempt(url.hostname, noProxy);
}
