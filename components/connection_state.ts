/**
 * The printer connection page's state as signals and what the page does with it: connect and
 * disconnect through `/api/connection`, send terminal commands through `/api/printer/command`,
 * follow the connection and the terminal on the push socket (reloading both whenever the socket
 * opens), plus the pure parts the components use. Browser code.
 *
 * @module
 */
import { computed, type ReadonlySignal, type Signal, signal } from "@preact/signals";
import {
  appendLines,
  type ConnectionCurrent,
  type ConnectionInfo,
  type ConnectionPhase,
  phaseOf,
  type PrinterPush,
  type TerminalLine,
} from "../lib/shared/printer_connection.ts";
import { followPush, HOST_PUSH_ID, pushConnected } from "../lib/shared/push.ts";

/** What the page hands the island. */
export interface ConnectionPageProps {
  info: ConnectionInfo;
  /** The terminal's recent lines, oldest first. */
  lines: TerminalLine[];
  /** The user may connect and disconnect (CONNECTION, with a session). */
  canConnect: boolean;
  /** The user may send commands (CONTROL, with a session). */
  canControl: boolean;
  csrfToken: string;
}

/** The port select's value for "another path", typed in a field of its own. */
export const OTHER_PORT = "";

/** What the connect form holds. */
export interface ConnectForm {
  /** A port offered, or {@linkcode OTHER_PORT}. */
  port: string;
  /** The path typed when `port` is {@linkcode OTHER_PORT}. */
  otherPort: string;
  /** A baud rate, or "" for the stored one (else the usual ones tried in turn). */
  baudrate: string;
  save: boolean;
  autoconnect: boolean;
}

/**
 * The form as the page opens: the port and baud rate in use, else the stored ones (a stored
 * path that is not offered goes in the "other" field), else the first port offered.
 */
export function initialForm(info: ConnectionInfo): ConnectForm {
  const { current, options } = info;
  const wanted = current.port ?? options.portPreference;
  const offered = wanted !== null && options.ports.includes(wanted);
  const baudrate = current.baudrate ?? options.baudratePreference;
  return {
    port: offered ? wanted : wanted === null ? options.ports[0] ?? OTHER_PORT : OTHER_PORT,
    otherPort: offered || wanted === null ? "" : wanted,
    baudrate: baudrate === null ? "" : String(baudrate),
    save: false,
    autoconnect: options.autoconnect,
  };
}

/**
 * The body of `POST /api/connection` for the form: `autoconnect` only when it changes what is
 * stored (each one given is written to config.yaml).
 */
export function connectBody(
  form: ConnectForm,
  storedAutoconnect: boolean,
): Record<string, unknown> {
  return {
    command: "connect",
    port: form.port === OTHER_PORT ? form.otherPort.trim() : form.port,
    ...(form.baudrate === "" ? {} : { baudrate: Number(form.baudrate) }),
    save: form.save,
    ...(form.autoconnect === storedAutoconnect ? {} : { autoconnect: form.autoconnect }),
  };
}

/** The state's badge: its text (an error's message goes in the alert) and its tone. */
export function stateBadge(current: ConnectionCurrent): { text: string; tone: string } {
  if (current.stateId === "ERROR") return { text: "Error", tone: "failed" };
  const phase = phaseOf(current.stateId);
  const tone = phase === "connected"
    ? "running"
    : phase === "connecting"
    ? "paused"
    : current.error
    ? "failed"
    : "";
  return { text: current.state, tone };
}

/**
 * A message cut into text and the parts it quotes in backticks (commands, group names).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codeParts } from "./connection_state.ts";
 * assert.deepEqual(codeParts("run `id`, then log in"), [
 *   { text: "run ", code: false },
 *   { text: "id", code: true },
 *   { text: ", then log in", code: false },
 * ]);
 * ```
 */
export function codeParts(message: string): { text: string; code: boolean }[] {
  return message.split("`").map((text, i) => ({ text, code: i % 2 === 1 }))
    .filter((p) => p.text !== "");
}

/** The page's state and actions. */
export interface ConnectionState {
  props: ConnectionPageProps;
  info: Signal<ConnectionInfo>;
  phase: ReadonlySignal<ConnectionPhase>;
  form: Signal<ConnectForm>;
  /** A connect or disconnect is on its way. */
  busy: Signal<boolean>;
  /** Why the last connect or disconnect was refused. */
  actionError: Signal<string>;
  lines: Signal<TerminalLine[]>;
  command: Signal<string>;
  commandError: Signal<string>;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  /** Sends the command box's line. */
  send(): Promise<void>;
  /** Reloads the connection and its choices. */
  reload(): Promise<void>;
  /** Follows the push socket; returns the unfollow. */
  follow(): () => void;
}

/** A JSON call to the host; throws an Error with the host's message when it refuses. */
async function call<T>(path: string, csrfToken: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    credentials: "same-origin",
    headers: body === undefined
      ? { Accept: "application/json" }
      : { "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = res.status === 204 ? {} : await res.json().catch(() => ({}));
  if (!res.ok) {
    throw new Error(typeof data.error === "string" ? data.error : `Request failed (${res.status})`);
  }
  return data as T;
}

/** Creates the state of the page. */
export function createConnectionState(props: ConnectionPageProps): ConnectionState {
  const post = (path: string, body: unknown) => call(path, props.csrfToken, body);
  const info = signal(props.info);
  const s: ConnectionState = {
    props,
    info,
    phase: computed(() => phaseOf(info.value.current.stateId)),
    form: signal(initialForm(props.info)),
    busy: signal(false),
    actionError: signal(""),
    lines: signal(props.lines),
    command: signal(""),
    commandError: signal(""),
    connect: () => act(connectBody(s.form.value, info.value.options.autoconnect)),
    disconnect: () => act({ command: "disconnect" }),
    async send() {
      const text = s.command.value.trim();
      if (text === "") return;
      s.command.value = "";
      s.commandError.value = "";
      try {
        await post("/api/printer/command", { commands: [text] });
      } catch (err) {
        s.commandError.value = `${text}: ${(err as Error).message}`;
      }
    },
    async reload() {
      info.value = await call<ConnectionInfo>("/api/connection", "");
    },
    follow() {
      const unfollow = followPush(HOST_PUSH_ID, (data) => {
        if (data.type !== "printer") return;
        const msg = data as unknown as PrinterPush;
        if (msg.connection) info.value = { ...info.value, current: msg.connection };
        if (msg.lines || msg.skipped) {
          s.lines.value = appendLines(s.lines.value, msg.lines ?? [], msg.skipped ?? 0);
        }
      });
      // Whatever happened while the socket was closed: read it again.
      const unwatch = pushConnected.subscribe((open) => {
        if (!open) return;
        s.reload().catch(() => {});
        call<{ lines: TerminalLine[] }>("/api/printer/terminal", "")
          .then((r) => s.lines.value = appendLines([], r.lines)).catch(() => {});
      });
      return () => {
        unwatch();
        unfollow();
      };
    },
  };
  /** A connection command; the connection is read again after it, refused or not. */
  async function act(body: unknown): Promise<void> {
    s.busy.value = true;
    s.actionError.value = "";
    s.commandError.value = "";
    try {
      await post("/api/connection", body);
    } catch (err) {
      s.actionError.value = (err as Error).message;
    } finally {
      await s.reload().catch(() => {});
      s.busy.value = false;
    }
  }
  return s;
}
