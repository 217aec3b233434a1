/**
 * An in-process simulator of the power hub's JSON WebSocket protocol, for tests and demos.
 *
 * - On connect it sends the snapshot nested under `control`:
 *   `{"control": {"usb": [{"id": 1, "on": 0}, ...], "mx24v": [...]}}`.
 * - A command `{"<kind>": {"id": N, "on": 0|1}}` switches the channel; the hub sends no reply
 *   but broadcasts `{"<kind>": [{"id": N, "on": 0|1}]}` to every client (the acknowledgement).
 * - It never sends pings (no idle timeout), like the real firmware.
 * - Switches: drop every connection, delay every outgoing frame, refuse new connections.
 *
 * Written independently of the plugin's protocol module so a bug there is not mirrored here.
 *
 * @module
 */

/** One channel of the simulated hub. */
export interface SimChannel {
  kind: string;
  id: number;
}

/** Channel states: kind → id (string) → 0 or 1. */
export type SimStates = Record<string, Record<string, 0 | 1>>;

/** A command the simulator received. */
export interface SimCommand {
  kind: string;
  id: number;
  on: 0 | 1;
}

/** Options of {@linkcode startHubSimulator}. */
export interface HubSimulatorOptions {
  /** Port to listen on; 0 lets the OS choose. @default 0 */
  port?: number;
  /** Loopback address to bind. @default "127.0.0.1" */
  hostname?: string;
  /** WebSocket path. @default "/ws" */
  path?: string;
  /** Channels of the hub. @default usb 1..5 and mx24v 1..5 */
  layout?: readonly SimChannel[];
  /** Called with every accepted command (after the state changed). */
  onCommand?(command: SimCommand): void;
}

/** A running simulator. */
export interface HubSimulator {
  /** `ws://127.0.0.1:PORT/ws`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly path: string;
  /** A copy of the current channel states. */
  readonly channels: SimStates;
  /** Number of connected clients. */
  readonly clients: number;
  /** Every accepted command, oldest first. */
  readonly commands: readonly SimCommand[];
  /** Switches a channel as if its button was pressed, broadcasting the change. */
  setChannel(kind: string, id: number, on: boolean): void;
  /** While on, closes every connection and every new one right after it opens. */
  setDropConnections(on?: boolean): void;
  /** Delays every outgoing frame (snapshot and broadcasts) by `ms`. */
  setDelayMs(ms: number): void;
  /** While on, answers new connections with HTTP 503 instead of upgrading. */
  setRefuse(on?: boolean): void;
  /** Closes every connection and the listener. */
  close(): Promise<void>;
}

/** The hub's real layout: five USB outputs, then five 24 V outputs. */
export const DEFAULT_SIM_LAYOUT: readonly SimChannel[] = [
  ...[1, 2, 3, 4, 5].map((id) => ({ kind: "usb", id })),
  ...[1, 2, 3, 4, 5].map((id) => ({ kind: "mx24v", id })),
];

/** Starts a simulator listening on loopback. */
export function startHubSimulator(options: HubSimulatorOptions = {}): Promise<HubSimulator> {
  const hostname = options.hostname ?? "127.0.0.1";
  const path = options.path ?? "/ws";
  const layout = options.layout ?? DEFAULT_SIM_LAYOUT;
  const states: SimStates = {};
  for (const { kind, id } of layout) (states[kind] ??= {})[String(id)] = 0;
  const sockets = new Set<WebSocket>();
  const open = new Set<WebSocket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const commands: SimCommand[] = [];
  let drop = false;
  let refuse = false;
  let delayMs = 0;

  const deliver = (ws: WebSocket, text: string) => {
    const write = () => {
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
    };
    if (delayMs <= 0) return write();
    const timer = setTimeout(() => {
      timers.delete(timer);
      write();
    }, delayMs);
    timers.add(timer);
  };
  const snapshot = () => {
    const control: Record<string, { id: number; on: 0 | 1 }[]> = {};
    for (const [kind, channels] of Object.entries(states)) {
      control[kind] = Object.entries(channels).map(([id, on]) => ({ id: Number(id), on }));
    }
    return JSON.stringify({ control });
  };
  const broadcast = (kind: string, id: number) => {
    const frame = JSON.stringify({ [kind]: [{ id, on: states[kind]?.[String(id)] ?? 0 }] });
    for (const ws of open) deliver(ws, frame);
  };
  const apply = (text: string) => {
    const command = parseSimCommand(text);
    if (!command || states[command.kind]?.[String(command.id)] === undefined) return;
    states[command.kind]![String(command.id)] = command.on;
    commands.push(command);
    options.onCommand?.(command);
    broadcast(command.kind, command.id);
  };

  const handler = (request: Request): Response => {
    if (new URL(request.url).pathname !== path) return new Response("not found", { status: 404 });
    if (refuse) return new Response("refused", { status: 503 });
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected a WebSocket upgrade", { status: 426 });
    }
    const { socket, response } = Deno.upgradeWebSocket(request, { idleTimeout: 0 });
    sockets.add(socket);
    socket.onopen = () => {
      if (drop) return socket.close(1001, "dropped");
      open.add(socket);
      deliver(socket, snapshot());
    };
    socket.onmessage = (event) => {
      if (typeof event.data === "string") apply(event.data);
    };
    socket.onclose = () => {
      open.delete(socket);
      sockets.delete(socket);
    };
    socket.onerror = () => {};
    return response;
  };

  const server = Deno.serve({ port: options.port ?? 0, hostname, onListen: () => {} }, handler);
  const port = server.addr.port;
  return Promise.resolve({
    url: `ws://${hostname}:${port}${path}`,
    port,
    host: hostname,
    path,
    get channels() {
      return structuredClone(states);
    },
    get clients() {
      return open.size;
    },
    get commands() {
      return [...commands];
    },
    setChannel(kind, id, on) {
      const channels = states[kind];
      if (channels?.[String(id)] === undefined) throw new RangeError(`No channel ${kind} ${id}`);
      channels[String(id)] = on ? 1 : 0;
      broadcast(kind, id);
    },
    setDropConnections(on = true) {
      drop = on;
      if (on) { for (const ws of sockets) closeSocket(ws); }
    },
    setDelayMs(ms) {
      delayMs = Math.max(0, ms);
    },
    setRefuse(on = true) {
      refuse = on;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all([...sockets].map(closeAndWait));
      await server.shutdown();
    },
  });
}

function parseSimCommand(text: string): SimCommand | undefined {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof frame !== "object" || frame === null) return undefined;
  const [kind, body] = Object.entries(frame)[0] ?? [];
  if (!kind || typeof body !== "object" || body === null) return undefined;
  const { id, on } = body as { id?: unknown; on?: unknown };
  if (typeof id !== "number" || !Number.isInteger(id)) return undefined;
  return { kind, id, on: on ? 1 : 0 };
}

function closeSocket(ws: WebSocket): void {
  if (ws.readyState === WebSocket.OPEN) ws.close(1001, "dropped");
}

function closeAndWait(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, 2000);
    ws.addEventListener("close", done, { once: true });
    function done() {
      clearTimeout(timer);
      resolve();
    }
    if (ws.readyState === WebSocket.OPEN) ws.close(1001, "closing");
  });
}
