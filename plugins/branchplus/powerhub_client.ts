/**
 * The hub client: one WebSocket to the hub, the merged channel snapshot, switch commands, and
 * reconnection with doubling backoff (first attempt immediate; then `min`, `2·min`, ... up to
 * `max`; reset to `min` on every successful open). The defaults (1 s up to 3 s, a handshake
 * allowed 4 s) reconnect a hub that comes back within 5 s of its return. The hub never answers
 * pings, so the client never relies on ping/pong. Timers run on the injected clock. Closing the
 * client on purpose (`stop()`) logs at INFO; only a connection lost otherwise is a WARNING.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import { messageOf } from "../../lib/error.ts";
import type { Logger } from "../../lib/log.ts";
import type { ChannelKind, ChannelStates } from "./layout.ts";
import { encodeCommand, mergeReadings, parseFrame } from "./protocol.ts";
import { waitForClose } from "./socket.ts";
import { mayConnect } from "../../lib/host/mod.ts";

/** Result of a switch command. */
export type SendResult =
  | { ok: true }
  | { ok: false; reason: "not_connected" | "send_failed"; detail: string };

/** Options of {@linkcode createHubClient}. */
export interface HubClientOptions {
  /** `ws://host:port/path`. */
  url: string;
  clock: Clock;
  logger: Logger;
  /** First reconnect delay. @default 1000 */
  reconnectMinMs?: number;
  /** Longest reconnect delay. @default 3000 */
  reconnectMaxMs?: number;
  /** Time allowed for the opening handshake. @default 4000 */
  connectTimeoutMs?: number;
  /** Opens the socket (tests wrap it). @default `new WebSocket(url)` */
  createSocket?(url: string): WebSocket;
  /**
   * The `host:port` of the hub: while this process may not reach it (the host is about to
   * restart under a wider scope) no connection is tried. @default none (always try)
   */
  target?: string;
  /** Called on every connect/disconnect transition. */
  onConnection?(connected: boolean): void;
  /** Called after every frame that carries channel states. */
  onStates?(update: StatesUpdate): void;
}

/** What one hub frame told the client. */
export interface StatesUpdate {
  /** The merged snapshot of the connection. */
  states: ChannelStates;
  /** Channels whose state changed (all of them for the first frame). */
  changed: ChannelStates;
  /** Every channel the frame mentioned, changed or not. */
  reported: ChannelStates;
  /** Whether this is the first frame after a connect (the hub's snapshot). */
  initial: boolean;
}

/** A running hub client. */
export interface HubClient {
  readonly url: string;
  /** Whether the socket is open. */
  readonly connected: boolean;
  /** Whether the snapshot of the current connection has arrived. */
  readonly synced: boolean;
  /** The delay before the next reconnect attempt, in ms. */
  readonly nextDelayMs: number;
  /** The merged channel snapshot of the current connection (`{}` while disconnected). */
  states(): ChannelStates;
  /** Sends one switch command. */
  send(kind: ChannelKind, id: number, on: boolean): SendResult;
  /** Changes the backoff bounds without reconnecting. */
  setBackoff(minMs: number, maxMs: number): void;
  /** Closes the socket and stops reconnecting; idempotent. */
  stop(): Promise<void>;
}

/** Longest reconnect delay by default, in ms: a returning hub is found within 3 s. */
export const DEFAULT_RECONNECT_MAX_MS = 3000;

/**
 * Time the opening handshake may take by default, in ms. A hub whose address does not answer at
 * all leaves the attempt hanging this long; with the default backoff the next attempt still starts
 * within 5 s of the hub's return.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 4000;

/** Connects to the hub (first attempt immediately) and keeps reconnecting until stopped. */
export function createHubClient(options: HubClientOptions): HubClient {
  const { clock, logger, url } = options;
  let minMs = Math.max(1000, options.reconnectMinMs ?? 1000);
  let maxMs = Math.max(minMs, options.reconnectMaxMs ?? DEFAULT_RECONNECT_MAX_MS);
  let delay = minMs;
  let socket: WebSocket | undefined;
  let connected = false;
  let synced = false;
  let stopped = false;
  let states: ChannelStates = {};
  let cancelTimer: (() => void) | undefined;
  let waitingForScope = false;

  const connect = () => {
    cancelTimer = undefined;
    if (stopped) return;
    if (options.target && !mayConnect(options.target)) {
      if (!waitingForScope) {
        logger.info(`Waiting for the host to be allowed to reach the hub at ${url}`);
      }
      waitingForScope = true;
      scheduleReconnect();
      return;
    }
    waitingForScope = false;
    let ws: WebSocket;
    try {
      ws = options.createSocket ? options.createSocket(url) : new WebSocket(url);
    } catch (err) {
      logger.warn(`Cannot connect to the hub at ${url}: ${messageOf(err)}`);
      scheduleReconnect();
      return;
    }
    socket = ws;
    const cancelHandshake = clock.setTimeout(() => {
      if (ws.readyState === WebSocket.CONNECTING) {
        logger.warn(`Cannot connect to the hub at ${url}: no answer to the handshake`);
        ws.close();
      }
    }, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    ws.onopen = () => {
      cancelHandshake();
      delay = minMs;
      connected = true;
      synced = false;
      states = {};
      logger.info(`Connected to the hub at ${url}`);
      options.onConnection?.(true);
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      const readings = parseFrame(event.data);
      if (!readings) return;
      const initial = !synced;
      const { merged, changed } = mergeReadings(initial ? {} : states, readings);
      states = merged;
      synced = true;
      const reported = mergeReadings({}, readings).merged;
      options.onStates?.({
        states: merged,
        changed: initial ? merged : changed,
        reported,
        initial,
      });
    };
    ws.onerror = (event) => {
      const message = event instanceof ErrorEvent ? event.message : "socket error";
      logger.debug(`Hub socket error (${url}): ${message}`);
    };
    ws.onclose = () => {
      cancelHandshake();
      if (socket === ws) socket = undefined;
      const wasConnected = connected;
      connected = false;
      synced = false;
      states = {};
      if (wasConnected) {
        // Closed by stop() (a host stop or restart, a new hub address): planned, not a loss.
        if (stopped) logger.info(`Closed the connection to the hub at ${url}`);
        else logger.warn(`Lost the connection to the hub at ${url}`);
        options.onConnection?.(false);
      }
      scheduleReconnect();
    };
  };

  const scheduleReconnect = () => {
    if (stopped) return;
    const wait = delay;
    delay = Math.min(delay * 2, maxMs);
    logger.debug(`Reconnecting to the hub at ${url} in ${wait} ms`);
    cancelTimer = clock.setTimeout(connect, wait);
  };

  connect();

  return {
    url,
    get connected() {
      return connected;
    },
    get synced() {
      return synced;
    },
    get nextDelayMs() {
      return delay;
    },
    states: () => structuredClone(states),
    send(kind, id, on) {
      if (!connected || !socket) {
        return { ok: false, reason: "not_connected", detail: `The hub at ${url} is not connected` };
      }
      try {
        socket.send(encodeCommand(kind, id, on));
        return { ok: true };
      } catch (err) {
        return {
          ok: false,
          reason: "send_failed",
          detail: `Cannot send the command to the hub at ${url}: ${messageOf(err)}`,
        };
      }
    },
    setBackoff(nextMin, nextMax) {
      minMs = Math.max(1000, nextMin);
      maxMs = Math.max(minMs, nextMax);
      delay = Math.min(Math.max(delay, minMs), maxMs);
    },
    async stop() {
      stopped = true;
      cancelTimer?.();
      cancelTimer = undefined;
      const ws = socket;
      if (ws) await waitForClose(ws);
    },
  };
}
