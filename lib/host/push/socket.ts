/**
 * The push socket route (`GET /push`, alias `/sockjs/websocket`): a WebSocket authenticated at
 * upgrade time by `X-Api-Key` or the session cookie (same-origin only), or by a first message
 * `{"auth": "<api key>"}` within a few seconds (for clients that cannot set headers).
 *
 * Sockets are capped per account and overall (the hub's slots): an upgrade beyond the caps
 * answers 429; a socket that authenticates by its first message into a full account is closed
 * with {@linkcode TOO_MANY_SOCKETS_CLOSE}. Until it authenticates a socket counts for its
 * address. A socket holds its slot until its connection is gone.
 *
 * @module
 */
import type { Context } from "hono";
import { ForbiddenError, RateLimitedError, UnavailableError, UsageError } from "../../error.ts";
import { clientAddress, isSameOrigin } from "../../http/mod.ts";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../clock.ts";
import { getCookie } from "hono/cookie";
import {
  resolvePrincipal,
  SESSION_COOKIE,
  type SessionStore,
  type UserStore,
} from "../auth/mod.ts";
import type { Permission } from "../plugin.ts";
import { hasPermission } from "../permissions.ts";
import { type PushClient, type PushHub, TOO_MANY_SOCKETS_CLOSE } from "./clients.ts";

/** The slot key of an account. */
const accountKey = (user: string) => `account:${user}`;

/** Options of {@linkcode pushSocketHandler}. */
export interface PushSocketOptions {
  hub: PushHub;
  users: UserStore;
  sessions: SessionStore;
  logger: Logger;
  clock: Clock;
  /** Time a client has to send `{"auth": key}` when it connected without credentials. @default 5000 */
  authTimeoutMs?: number;
  /** Sent to each client once authenticated. */
  hello?: Record<string, unknown>;
  /**
   * How often an authenticated client's key or session is checked again: a revoked key, a
   * deleted user, a changed password or an expired session closes the socket (4401) and a cut
   * permission applies. @default 2000
   */
  recheckMs?: number;
}

/** The current permissions of a key or session, or null when it no longer authenticates. */
async function currentPermissions(
  options: PushSocketOptions,
  credential: { key: string } | { sid: string },
): Promise<Permission[] | null> {
  if ("key" in credential) {
    return (await options.users.verifyKey(credential.key))?.permissions ?? null;
  }
  const session = options.sessions.get(credential.sid);
  if (!session) return null;
  const account = await options.users.account(session.user);
  return account && account.stamp === session.stamp ? account.permissions : null;
}

/** The handler for the socket routes (must run outside the host's authenticate middleware). */
export function pushSocketHandler(options: PushSocketOptions): (c: Context) => Promise<Response> {
  const timeout = options.authTimeoutMs ?? 5000;
  return async function pushSocket(c) {
    if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
      throw new UsageError("Expected a WebSocket upgrade");
    }
    if (options.hub.closed) throw new UnavailableError("The host is shutting down");
    if (c.req.header("X-Api-Key") === undefined && !isSameOrigin(c)) {
      throw new ForbiddenError("Cross-origin push socket refused");
    }
    const principal = await resolvePrincipal(c, options);
    if (principal && !hasPermission(principal.permissions, "STATUS")) {
      throw new ForbiddenError("Permission STATUS required");
    }
    const header = c.req.header("X-Api-Key");
    const sid = getCookie(c, SESSION_COOKIE);
    let credential: { key: string } | { sid: string } | null = principal === null
      ? null
      : header !== undefined
      ? { key: header.trim() }
      : { sid: sid! };
    const slot = options.hub.slots.take(
      principal ? accountKey(principal.user) : `address:${clientAddress(c)}`,
    );
    if (slot === null) {
      throw new RateLimitedError("Too many push sockets open; close one and retry", {
        retryAfterSeconds: 10,
      });
    }
    let upgraded: ReturnType<typeof Deno.upgradeWebSocket>;
    try {
      upgraded = Deno.upgradeWebSocket(c.req.raw);
    } catch (err) {
      slot.release();
      throw err;
    }
    const { socket, response } = upgraded;
    const client: PushClient = {
      send: (text) => socket.send(text),
      permissions: null,
      close: (code = 1001, reason = "Host shutting down") => socket.close(code, reason),
      queued: () => socket.bufferedAmount,
    };
    let remove = () => {};
    let cancelTimer = () => {};
    let cancelRecheck = () => {};
    const recheck = async () => {
      if (credential === null || socket.readyState !== WebSocket.OPEN) return;
      const permissions = await currentPermissions(options, credential);
      if (permissions === null || !hasPermission(permissions, "STATUS")) {
        client.permissions = null;
        cancelRecheck();
        socket.close(4401, "Authentication ended");
      } else client.permissions = permissions;
    };
    const admit = (permissions: PushClient["permissions"]) => {
      cancelTimer();
      client.permissions = permissions;
      cancelRecheck = options.clock.setInterval(() => {
        recheck().catch((err) => options.logger.warn(`Push socket recheck failed: ${err}`));
      }, options.recheckMs ?? 2000);
      if (options.hello) socket.send(JSON.stringify(options.hello));
    };
    socket.onopen = () => {
      remove = options.hub.add(client);
      if (principal) admit(principal.permissions);
      else {
        cancelTimer = options.clock.setTimeout(() => {
          if (client.permissions === null) socket.close(4401, "Authentication required");
        }, timeout);
      }
    };
    socket.onmessage = async (ev) => {
      if (client.permissions !== null || typeof ev.data !== "string") return;
      let key: unknown;
      try {
        key = (JSON.parse(ev.data) as { auth?: unknown }).auth;
      } catch {
        key = undefined;
      }
      const p = typeof key === "string" ? await options.users.verifyKey(key) : null;
      if (!p || !hasPermission(p.permissions, "STATUS")) {
        socket.close(4401, "Authentication failed");
        return;
      }
      if (!slot.move(accountKey(p.user))) {
        socket.close(TOO_MANY_SOCKETS_CLOSE, "Too many push sockets for this account");
        return;
      }
      credential = { key: key as string };
      admit(p.permissions);
    };
    socket.onclose = () => {
      cancelTimer();
      cancelRecheck();
      remove();
      slot.release();
    };
    socket.onerror = () => options.logger.debug("Push socket error");
    return response;
  };
}
