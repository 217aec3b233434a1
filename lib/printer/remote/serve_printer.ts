/**
 * The printer process's side of its socket: serves a {@linkcode Printer} to the host (and to the
 * host restarted after it) over the protocol of `./protocol.ts`. Each client first gets the full
 * state, then every event with what it changed, and the answers to its requests.
 *
 * Bounded: at most `maxClients` clients (one more is told so and closed), `maxQueueBytes` waiting
 * for each (a client that stops reading is dropped and may reconnect), `maxRequestBytes` per
 * request line and `maxPendingRequests` in flight per client; a malformed line is answered with
 * an error, never a crash.
 *
 * Deno flags: `--allow-read=<path> --allow-write=<path> --allow-net=unix:<path>`.
 *
 * @module
 */
import { TooLargeError, UnavailableError } from "../../error.ts";
import type { Logger } from "../../log.ts";
import type { Printer, PrinterEvent } from "../printer.ts";
import { LineConn } from "./line_conn.ts";
import { listenSocket } from "./listen_socket.ts";
import {
  BadRequestLine,
  encodeLine,
  parseRequest,
  type PrinterView,
  type RequestId,
  type ViewUpdate,
} from "./protocol.ts";
import { INTERNAL, toWireError } from "./wire_errors.ts";

/** Options of {@linkcode servePrinter}. */
export interface ServePrinterOptions {
  /** The socket's path (in the host's data folder). */
  path: string;
  /** Clients served at once. @default 8 */
  maxClients?: number;
  /**
   * Bytes waiting to be written to one client before it is dropped (the full state alone may
   * pass it). @default 8 MiB
   */
  maxQueueBytes?: number;
  /** Longest request line in bytes. @default 1 MiB */
  maxRequestBytes?: number;
  /** Requests of one client in flight at once; more are answered 'unavailable'. @default 64 */
  maxPendingRequests?: number;
  /** Where dropped clients and failures of the printer (bugs) are logged. */
  logger?: Logger;
}

/** A printer served on a socket. */
export interface PrinterServer extends AsyncDisposable {
  readonly path: string;
  /** Clients connected now. */
  readonly clients: number;
  /** Stops listening, closes every client and removes the socket file. */
  close(): Promise<void>;
}

/**
 * Serves `printer` on the Unix socket at `options.path` (mode 0600), taking over a socket file
 * left by a killed process.
 *
 * @throws {ConflictError} when another process listens at the path, or a file that is no socket
 * is there.
 */
export async function servePrinter(
  printer: Printer,
  options: ServePrinterOptions,
): Promise<PrinterServer> {
  return new SocketPrinterServer(printer, await listenSocket(options.path), options);
}

interface Client {
  conn: LineConn;
  pending: number;
}

class SocketPrinterServer implements PrinterServer {
  readonly path: string;
  readonly #printer: Printer;
  readonly #listener: Deno.UnixListener;
  readonly #options: Required<Omit<ServePrinterOptions, "logger">>;
  readonly #logger: Logger | undefined;
  readonly #clients = new Set<Client>();
  /** Every connection (refused ones too) until it ended. */
  readonly #conns = new Set<LineConn>();
  readonly #unsubscribe: () => void;
  readonly #accepting: Promise<void>;
  #closing: Promise<void> | null = null;
  /** Newest history sample time sent, and the history's length then. */
  #lastSample: number;
  #historySize: number;

  constructor(printer: Printer, listener: Deno.UnixListener, options: ServePrinterOptions) {
    this.path = options.path;
    this.#printer = printer;
    this.#listener = listener;
    this.#logger = options.logger;
    this.#options = {
      path: options.path,
      maxClients: options.maxClients ?? 8,
      maxQueueBytes: options.maxQueueBytes ?? 8 * 1024 * 1024,
      maxRequestBytes: options.maxRequestBytes ?? 1024 * 1024,
      maxPendingRequests: options.maxPendingRequests ?? 64,
    };
    const history = printer.history();
    this.#lastSample = history.at(-1)?.time ?? -Infinity;
    this.#historySize = history.length;
    this.#unsubscribe = printer.subscribe((event) => this.#broadcast(event));
    this.#accepting = this.#accept();
  }

  get clients(): number {
    return this.#clients.size;
  }

  async #accept(): Promise<void> {
    try {
      for await (const conn of this.#listener) this.#admit(conn);
    } catch {
      // The listener was closed.
    }
  }

  #admit(socket: Deno.UnixConn): void {
    const client: Client = { conn: null!, pending: 0 };
    const admitted = this.#clients.size < this.#options.maxClients;
    client.conn = new LineConn(socket, {
      maxLineBytes: this.#options.maxRequestBytes,
      maxQueueBytes: this.#options.maxQueueBytes,
      onLine: (line) => {
        if (!admitted) return;
        if (line.type === "line") this.#request(client, line.text);
        else {
          const err = new TooLargeError(
            `A request line is longer than ${this.#options.maxRequestBytes} bytes`,
          );
          client.conn.send(encodeLine({ id: null, error: toWireError(err) }));
        }
      },
      onClose: (reason) => {
        this.#clients.delete(client);
        if (reason === "overflow") {
          this.#logger?.warn(
            `Dropped a client of the printer socket: it left more than ` +
              `${this.#options.maxQueueBytes} bytes unread`,
          );
        }
      },
    });
    this.#conns.add(client.conn);
    client.conn.done.then(() => this.#conns.delete(client.conn));
    if (!admitted) {
      const err = new UnavailableError(
        `The printer process serves ${this.#options.maxClients} clients already`,
        { retryAfterSeconds: 1 },
      );
      client.conn.send(encodeLine({ id: null, error: toWireError(err) }));
      client.conn.end();
      return;
    }
    this.#clients.add(client);
    try {
      client.conn.send(encodeLine({ full: this.#view() }));
    } catch (err) {
      this.#logger?.failure("Cannot send the printer's state", err);
      client.conn.close();
    }
  }

  #view(): PrinterView {
    const p = this.#printer;
    return {
      connection: p.connection(),
      snapshot: p.snapshot(),
      job: p.job(),
      history: p.history(),
      terminal: p.terminal(),
    };
  }

  #broadcast(event: PrinterEvent): void {
    if (this.#clients.size === 0) return;
    try {
      const line = encodeLine({ event, update: this.#update(event) });
      for (const client of this.#clients) client.conn.send(line);
    } catch (err) {
      this.#logger?.failure("Cannot send a printer event", err);
    }
  }

  #update(event: PrinterEvent): ViewUpdate {
    const p = this.#printer;
    const update: ViewUpdate = { connection: p.connection(), snapshot: p.snapshot(), job: p.job() };
    if (event.type === "terminal") {
      update.terminal = { append: [event.line], size: p.terminal().length };
      return update;
    }
    const history = p.history();
    let first = history.length;
    while (first > 0 && history[first - 1]!.time > this.#lastSample) first--;
    if (first < history.length || history.length !== this.#historySize) {
      update.history = { append: history.slice(first), size: history.length };
    }
    this.#lastSample = Math.max(this.#lastSample, history.at(-1)?.time ?? -Infinity);
    this.#historySize = history.length;
    return update;
  }

  #request(client: Client, text: string): void {
    let id: RequestId | null = null;
    try {
      const request = parseRequest(text);
      id = request.id;
      if (client.pending >= this.#options.maxPendingRequests) {
        throw new UnavailableError(
          `${this.#options.maxPendingRequests} requests wait already: try again`,
          { retryAfterSeconds: 1 },
        );
      }
      client.pending++;
      const method = this.#printer[request.method] as (...args: unknown[]) => Promise<unknown>;
      Promise.try(() => method.apply(this.#printer, request.params)).then(
        (result) => ({ id: request.id, result: result ?? null }),
        (err) => ({ id: request.id, error: this.#wireError(err, request.method) }),
      ).then((answer) => {
        client.pending--;
        client.conn.send(encodeLine(answer));
      });
    } catch (err) {
      if (err instanceof BadRequestLine) id = err.id;
      client.conn.send(encodeLine({ id, error: this.#wireError(err, "a request") }));
    }
  }

  #wireError(err: unknown, what: string) {
    const wire = toWireError(err);
    if (wire.kind === INTERNAL) this.#logger?.failure(`The printer failed ${what}`, err);
    return wire;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#unsubscribe();
      this.#listener.close(); // removes the socket file
      await this.#accepting;
      for (const conn of this.#conns) conn.close();
      await Promise.all([...this.#conns].map((conn) => conn.done));
    })();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
