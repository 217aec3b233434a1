/**
 * A synchronous PostgreSQL connection for the synchronous store: a worker owns one `pg` client
 * (worker.ts); each call posts the statement and blocks the calling thread in `Atomics.wait` until
 * the worker has written the answer into a shared buffer (protocol.ts). A server that does not
 * answer within the timeout ends the connection with an error instead of hanging the process;
 * the server's errors come back with their SQLSTATE.
 *
 * @module
 */
import { StorageError } from "../../error.ts";
import {
  type Answer,
  type Call,
  type ConnectRequest,
  HEADER_BYTES,
  INITIAL_BYTES,
  MAX_BYTES,
  type QueryAnswer,
  READY,
  WAITING,
} from "./protocol.ts";

/** A statement the server refused: its message, SQLSTATE (`sqlState`) and detail. */
export class PgError extends Error {
  /** The SQLSTATE, e.g. `23505` (unique violation); undefined for a client-side failure. */
  readonly sqlState: string | undefined;
  readonly detail: string | undefined;

  constructor(message: string, sqlState?: string, detail?: string) {
    super(message);
    this.name = "PgError";
    this.sqlState = sqlState;
    this.detail = detail;
  }
}

/** Options of {@linkcode PgBridge.connect}. */
export interface BridgeOptions {
  /** `pg`'s `ssl` option. */
  ssl?: ConnectRequest["ssl"];
  /** How long connecting may take. @default 10_000 */
  connectTimeoutMs?: number;
  /** How long one statement may take before the connection is given up. @default 60_000 */
  queryTimeoutMs?: number;
  /** A name for the server in messages (never the password): `host:port/db`. */
  label?: string;
}

/**
 * The worker's module: `worker.ts` beside this file from source (and in a compiled program, which
 * embeds it: tools/compile.sh), `pg_worker.js` beside a bundle (tools/bundle.sh writes it).
 */
function workerUrl(): URL {
  const source = new URL("./worker.ts", import.meta.url);
  try {
    if (source.protocol === "file:") Deno.statSync(source);
    return source;
  } catch {
    return new URL("./pg_worker.js", import.meta.url);
  }
}

/** Extra time the worker gets on top of the connect timeout to load the client. */
const STARTUP_MS = 10_000;

/** One connection to a PostgreSQL server, used synchronously. */
export class PgBridge {
  #worker: Worker | null;
  #buffer = new SharedArrayBuffer(INITIAL_BYTES, { maxByteLength: MAX_BYTES });
  #queryTimeoutMs: number;
  #label: string;

  private constructor(worker: Worker, options: BridgeOptions) {
    this.#worker = worker;
    this.#queryTimeoutMs = options.queryTimeoutMs ?? 60_000;
    this.#label = options.label ?? "the PostgreSQL server";
  }

  /** Connects to `connectionString`; throws a {@linkcode PgError} when the server refuses. */
  static connect(connectionString: string, options: BridgeOptions = {}): PgBridge {
    const worker = new Worker(workerUrl(), { type: "module" });
    const bridge = new PgBridge(worker, options);
    const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    try {
      bridge.#call({
        kind: "connect",
        connectionString,
        ssl: options.ssl,
        connectTimeoutMs,
        statementTimeoutMs: bridge.#queryTimeoutMs,
      }, connectTimeoutMs + STARTUP_MS);
    } catch (err) {
      bridge.#end();
      throw err;
    }
    return bridge;
  }

  /** Whether the connection is open. */
  get isOpen(): boolean {
    return this.#worker !== null;
  }

  /**
   * Runs one statement with `params` (`$1`, `$2`… placeholders), or, without params, a script
   * of statements separated by semicolons (the last one's rows).
   */
  query(sql: string, params?: unknown[]): QueryAnswer {
    try {
      return this.#call({ kind: "query", sql, params }, this.#queryTimeoutMs + 5_000);
    } catch (err) {
      throw lostConnection(err, this.#label) ?? err;
    }
  }

  /** Ends the connection (idempotent). */
  close(): void {
    if (!this.#worker) return;
    try {
      this.#call({ kind: "close" }, 5_000);
    } catch {
      // the worker is ended below in any case
    }
    this.#end();
  }

  #end(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }

  #call(request: Call, timeoutMs: number): QueryAnswer {
    const worker = this.#worker;
    if (!worker) throw new PgError(`The connection to ${this.#label} is closed`);
    const words = new Int32Array(this.#buffer, 0, 2);
    Atomics.store(words, 0, WAITING);
    worker.postMessage({ ...request, buffer: this.#buffer });
    const outcome = Atomics.wait(words, 0, WAITING, timeoutMs);
    if (outcome === "timed-out" && Atomics.load(words, 0) !== READY) {
      this.#end();
      throw new StorageError(
        `${this.#label} did not answer within ${Math.round(timeoutMs / 1000)} s: the ` +
          `connection was closed`,
        { code: "store_unavailable" },
      );
    }
    const length = Atomics.load(words, 1);
    const bytes = new Uint8Array(this.#buffer, HEADER_BYTES, length).slice();
    const answer = JSON.parse(new TextDecoder().decode(bytes)) as Answer;
    if (!answer.ok) throw new PgError(answer.message, answer.code, answer.detail);
    return answer;
  }
}

/**
 * The connection's end said as a {@linkcode StorageError} (`store_unavailable`): a failure
 * without a SQLSTATE (the socket closed, the client ended) or one of class 08 (connection
 * exception) or 57P (the server shut down). Null for any other error.
 */
function lostConnection(err: unknown, label: string): StorageError | null {
  if (!(err instanceof PgError)) return null;
  const state = err.sqlState;
  if (state !== undefined && !state.startsWith("08") && !state.startsWith("57P")) return null;
  return new StorageError(
    `Lost the connection to ${label} (${err.message}): check the server and run again`,
    { code: "store_unavailable", cause: err },
  );
}
