/**
 * The push hub: every connected socket client, and delivery of plugin messages
 * `{"plugin": {"plugin": <id>, "data": {...}}}` filtered by permission. A failing client is
 * dropped and never stops delivery to the others.
 *
 * Each client's send queue is bounded: when more than {@linkcode MAX_PUSH_QUEUED_BYTES} sent to it
 * are still unwritten (a client that reads slowly or not at all), it gets nothing more and is
 * closed with {@linkcode LAGGED_CLOSE} ("lagged", the code telling it to reload its state when
 * it reconnects). The hub also holds the caps on sockets ({@linkcode PushHub.slots}: per account
 * and overall), which the socket route takes a slot of for each connection.
 *
 * @module
 */
import { ConnectionSlots, type SlotLimits } from "../../http/mod.ts";
import type { Logger } from "../../log.ts";
import type { Permission } from "../plugin.ts";
import { hasPermission } from "../permissions.ts";
import { LAGGED_CLOSE } from "../../shared/push.ts";

/** Bytes that may wait unwritten for one client before it is closed as lagging. */
export const MAX_PUSH_QUEUED_BYTES = 256 * 1024;
/**
 * The close codes: {@linkcode LAGGED_CLOSE} (4408) for a client that fell behind (its queue
 * passed {@linkcode MAX_PUSH_QUEUED_BYTES}), {@linkcode TOO_MANY_SOCKETS_CLOSE} (4429) for a
 * socket over its account's cap (known once it authenticated); shared with the page's client.
 */
export { LAGGED_CLOSE, TOO_MANY_SOCKETS_CLOSE } from "../../shared/push.ts";
/** Push sockets one account may hold at once (sockets waiting to authenticate: per address). */
export const SOCKETS_PER_ACCOUNT = 32;
/** Push sockets held at once over all accounts. */
export const SOCKETS_TOTAL = 256;

/** One connected client. */
export interface PushClient {
  /** Sends one text frame; may throw when the socket is gone. */
  send(text: string): void;
  /** The client's permissions (null until it authenticated). */
  permissions: Permission[] | null;
  /** Closes the connection (on host shutdown: 1001; lagging: {@linkcode LAGGED_CLOSE}). */
  close?(code?: number, reason?: string): void;
  /** Bytes sent to it and not yet written to its connection (a WebSocket's `bufferedAmount`). */
  queued?(): number;
}

/** Options of {@linkcode PushHub}. */
export interface PushHubOptions {
  /** @default MAX_PUSH_QUEUED_BYTES */
  maxQueuedBytes?: number;
  /** @default {perKey: SOCKETS_PER_ACCOUNT, total: SOCKETS_TOTAL} */
  sockets?: SlotLimits;
}

/** A message as it travels on the socket. */
export interface PluginMessage {
  plugin: { plugin: string; data: Record<string, unknown> };
}

/**
 * Fans messages out to clients.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PushHub } from "./clients.ts";
 * const hub = new PushHub();
 * const got: string[] = [];
 * hub.add({ send: (t) => got.push(t), permissions: ["STATUS"] });
 * hub.send("logmonitor", { type: "log_lines", data: [] });
 * assert.equal(JSON.parse(got[0]!).plugin.plugin, "logmonitor");
 * ```
 */
export class PushHub {
  #clients = new Set<PushClient>();
  #closed = false;
  #logger: Logger | undefined;
  #listeners = new Set<(pluginId: string, data: Record<string, unknown>) => void>();
  #maxQueued: number;
  /** The caps on sockets (a socket takes a slot when accepted, gives it back when closed). */
  readonly slots: ConnectionSlots;

  constructor(logger?: Logger, options: PushHubOptions = {}) {
    this.#logger = logger;
    this.#maxQueued = options.maxQueuedBytes ?? MAX_PUSH_QUEUED_BYTES;
    this.slots = new ConnectionSlots(
      options.sockets ?? { perKey: SOCKETS_PER_ACCOUNT, total: SOCKETS_TOTAL },
    );
  }

  /** Whether {@linkcode PushHub.closeAll} ran: the host is stopping and takes no new client. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Registers a client; returns the function removing it. Once the hub is closed the client is
   * closed at once (a page reconnecting during a stop must not hold the server open).
   */
  add(client: PushClient): () => void {
    if (this.#closed) {
      client.close?.();
      return () => false;
    }
    this.#clients.add(client);
    return () => this.#clients.delete(client);
  }

  /** Number of connected clients. */
  get size(): number {
    return this.#clients.size;
  }

  /** Observes every message sent (tests, bridges); returns the unsubscribe function. */
  observe(listener: (pluginId: string, data: Record<string, unknown>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Sends a plugin message to every authenticated client holding `permission`. */
  send(pluginId: string, data: Record<string, unknown>, permission: Permission = "STATUS"): void {
    const text = JSON.stringify({ plugin: { plugin: pluginId, data } } satisfies PluginMessage);
    for (const client of this.#clients) {
      if (client.permissions === null || !hasPermission(client.permissions, permission)) continue;
      this.#deliver(client, text);
    }
    for (const listener of this.#listeners) {
      try {
        listener(pluginId, data);
      } catch (err) {
        this.#logger?.error(`Push observer failed: ${err}`);
      }
    }
  }

  /** Closes and forgets every client; clients added later are closed at once. */
  closeAll(): void {
    this.#closed = true;
    for (const client of this.#clients) {
      try {
        client.close?.();
      } catch {
        // already gone
      }
    }
    this.#clients.clear();
  }

  /** Sends a raw (non-plugin) message to every authenticated client. */
  broadcast(message: Record<string, unknown>): void {
    const text = JSON.stringify(message);
    for (const client of this.#clients) {
      if (client.permissions !== null) this.#deliver(client, text);
    }
  }

  /** Sends to one client, or closes it when it lags; a client that throws is dropped. */
  #deliver(client: PushClient, text: string): void {
    try {
      const queued = client.queued?.() ?? 0;
      if (queued <= this.#maxQueued) return client.send(text);
      this.#clients.delete(client);
      this.#logger?.info(`Closed a push client that lagged (${queued} bytes unsent)`);
      client.close?.(LAGGED_CLOSE, `Lagged: ${queued} bytes unsent`);
    } catch (err) {
      this.#clients.delete(client);
      this.#logger?.debug(`Dropped push client: ${err}`);
    }
  }
}
