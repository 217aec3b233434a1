/**
 * The page's push socket (the plugin host's `/push`), shared by every island of the page: one
 * WebSocket however many islands follow it, opened by the first follower, closed after the last,
 * reopened 3 s after a loss. `pushConnected` is a signal, so any island shows the connection and
 * reloads its state when it comes back (browser code: no Deno APIs). A socket the host closed as
 * lagging ({@linkcode LAGGED_CLOSE}) is reopened the same way (the reload catches up); one refused
 * over its account's cap ({@linkcode TOO_MANY_SOCKETS_CLOSE}) only after
 * {@linkcode CAPPED_RECONNECT_MS}.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";

/** A plugin message from the push socket. */
export interface PushMessage {
  plugin?: { plugin: string; data: Record<string, unknown> };
}

/**
 * The channel of the host's own messages (`{"plugin": {"plugin": "host", "data": …}}`: the
 * printer, a restart for a wider scope); no plugin may take this id.
 */
export const HOST_PUSH_ID = "host";

/** Whether the push socket is open. */
export const pushConnected: Signal<boolean> = signal(false);

/** Time before reconnecting after a loss. */
export const RECONNECT_MS = 3000;

/** Time before reconnecting after the host refused the socket over its account's cap. */
export const CAPPED_RECONNECT_MS = 30_000;

/** Close code of a socket the host closed because it fell behind (its send queue was full). */
export const LAGGED_CLOSE = 4408;

/** Close code of a socket over its account's cap, known once its first-message key was read. */
export const TOO_MANY_SOCKETS_CLOSE = 4429;

type Listener = (data: Record<string, unknown>) => void;

const followers = new Map<string, Set<Listener>>();
let socket: WebSocket | null = null;
let retry: ReturnType<typeof setTimeout> | undefined;

function count(): number {
  let n = 0;
  for (const set of followers.values()) n += set.size;
  return n;
}

function connect(): void {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/push`);
  socket = ws;
  ws.onopen = () => {
    pushConnected.value = true;
  };
  ws.onmessage = (ev) => {
    let msg: PushMessage;
    try {
      msg = JSON.parse(String(ev.data)) as PushMessage;
    } catch {
      return;
    }
    const target = msg.plugin;
    if (!target) return;
    for (const fn of [...(followers.get(target.plugin) ?? [])]) fn(target.data);
  };
  ws.onclose = (ev?: { code?: number }) => {
    if (socket !== ws) return;
    socket = null;
    pushConnected.value = false;
    if (count() === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect();
    }, ev?.code === TOO_MANY_SOCKETS_CLOSE ? CAPPED_RECONNECT_MS : RECONNECT_MS);
  };
}

/**
 * Calls `onData` with every message of `pluginId` until the returned function is called; the
 * first follower opens the socket, the last one closes it.
 */
export function followPush(pluginId: string, onData: Listener): () => void {
  let set = followers.get(pluginId);
  if (!set) followers.set(pluginId, set = new Set());
  set.add(onData);
  if (!socket && retry === undefined) connect();
  return () => {
    set.delete(onData);
    if (count() > 0) return;
    clearTimeout(retry);
    retry = undefined;
    const ws = socket;
    socket = null;
    pushConnected.value = false;
    ws?.close();
  };
}
