/**
 * The push hub: every connected socket client, and delivery of plugin messages
 * `{"plugin": {"plugin": <id>, "data": {...}}}` filtered by permission. A failing client is
 * dropped and never stops delivery to the others.
 *
 * @module
 */
import type { Logger } from "../../log.ts";
import type { Permission } from "../plugin.ts";
import { hasPermission } from "../permissions.ts";

/** One connected client. */
export interface PushClient {
  /** Sends one text frame; may throw when the socket is gone. */
  send(text: string): void;
  /** The client's permissions (null until it authenticated). */
  permissions: Permission[] | null;
  /** Closes the connection (on host shutdown). */
  close?(): void;
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

  constructor(logger?: Logger) {
    this.#logger = logger;
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
      try {
        client.send(text);
      } catch (err) {
        this.#clients.delete(client);
        this.#logger?.debug(`Dropped push client: ${err}`);
      }
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
      if (client.permissions === null) continue;
      try {
        client.send(text);
      } catch {
        this.#clients.delete(client);
      }
    }
  }
}
