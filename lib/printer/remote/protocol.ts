/**
 * The wire protocol between the printer process and the host: one JSON object per line (UTF-8,
 * `\n`) over a Unix socket.
 *
 * Host → printer process, a request: `{"id": 7, "method": "setTargets", "params": [{"bed": 60}]}`
 * (`params` are the arguments of the {@linkcode Printer} method, in order).
 *
 * Printer process → host:
 * - first, once per connection, the full state: `{"full": PrinterView}`;
 * - each printer event with what it changed, in the order they happened:
 *   `{"event": PrinterEvent, "update": ViewUpdate}`;
 * - the answer to a request: `{"id": 7, "result": …}` or `{"id": 7, "error": WireError}`; a line
 *   that is no request (malformed, too long) is answered with `"id": null`.
 *
 * The printer process holds the serial line (and FFI): it treats every request as untrusted input
 * and checks it here ({@linkcode parseRequest}).
 *
 * @module
 */
import * as v from "valibot";
import { UsageError } from "../../error.ts";
import { JsonDepthError, parseJsonLimited } from "../../json_limited.ts";
import { isPlainObject } from "../../shared/json_object.ts";
import type {
  ConnectionStatus,
  JobStatus,
  Printer,
  PrinterEvent,
  PrinterSnapshot,
  TemperatureSample,
  TerminalLine,
} from "../printer.ts";
import type { WireError } from "./wire_errors.ts";

/** Everything a host mirrors of the printer: what the sync reads of {@linkcode Printer} return. */
export interface PrinterView {
  connection: ConnectionStatus;
  snapshot: PrinterSnapshot;
  job: JobStatus;
  history: TemperatureSample[];
  terminal: TerminalLine[];
}

/** New entries of a list the printer keeps a tail of, and how long the tail is now. */
export interface TailUpdate<T> {
  append: T[];
  /** The printer's tail length after the append (the mirror keeps as many, the newest). */
  size: number;
}

/** What an event changed: the small parts whole, the tails as appends. */
export interface ViewUpdate {
  connection: ConnectionStatus;
  snapshot: PrinterSnapshot;
  job: JobStatus;
  /** New samples (only those newer than any sent before), when the history changed. */
  history?: TailUpdate<TemperatureSample>;
  /** The line of a `terminal` event. */
  terminal?: TailUpdate<TerminalLine>;
}

/** A line the printer process sends. */
export type ServerMessage =
  | { full: PrinterView }
  | { event: PrinterEvent; update: ViewUpdate }
  | { id: RequestId | null; result: unknown }
  | { id: RequestId | null; error: WireError };

/** The id a client gives a request (echoed in the answer). */
export type RequestId = number | string;

/** The methods a client may call: the async methods of {@linkcode Printer}. */
export type Method =
  | "ports"
  | "connect"
  | "disconnect"
  | "fakeAck"
  | "setTargets"
  | "commands"
  | "selectJob"
  | "startJob"
  | "pauseJob"
  | "resumeJob"
  | "cancelJob"
  | "restartJob";

const none = v.strictTuple([]);

/** Each method's arguments (typed as the printer's, so a change to `Printer` shows here). */
const PARAMS: { [M in Method]: v.GenericSchema<unknown, Parameters<Printer[M]>> } = {
  ports: none,
  connect: v.strictTuple([v.object({ port: v.string(), baudrate: v.number() })]),
  disconnect: none,
  fakeAck: none,
  setTargets: v.strictTuple([v.record(v.string(), v.number())]),
  commands: v.strictTuple([v.array(v.string())]),
  selectJob: v.strictTuple([v.nullable(v.string())]),
  startJob: v.strictTuple([v.string()]),
  pauseJob: none,
  resumeJob: none,
  cancelJob: none,
  restartJob: none,
};

/** A checked request. */
export interface Request<M extends Method = Method> {
  id: RequestId;
  method: M;
  params: Parameters<Printer[M]>;
}

/** Why a line is no request, with the id to answer when the line had a usable one. */
export class BadRequestLine extends UsageError {
  constructor(message: string, readonly id: RequestId | null) {
    super(message, { code: "invalid_request" });
  }
}

function isRequestId(value: unknown): value is RequestId {
  return Number.isSafeInteger(value) || (typeof value === "string" && value.length <= 64);
}

/**
 * Reads one request line.
 *
 * @throws {BadRequestLine} for a line that is not JSON, not a request, names no method the
 * printer has, or whose params are not the method's arguments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRequest } from "./protocol.ts";
 * assert.deepEqual(parseRequest('{"id": 1, "method": "startJob", "params": ["a.gcode"]}'), {
 *   id: 1,
 *   method: "startJob",
 *   params: ["a.gcode"],
 * });
 * assert.throws(() => parseRequest('{"id": 2, "method": "startJob", "params": [3]}'), /params/);
 * ```
 */
export function parseRequest(line: string): Request {
  let value: unknown;
  try {
    value = parseJsonLimited(line, 16);
  } catch (err) {
    if (err instanceof SyntaxError || err instanceof JsonDepthError) {
      throw new BadRequestLine(`Cannot read the request: ${err.message}`, null);
    }
    throw err;
  }
  const id = isPlainObject(value) && isRequestId(value.id) ? value.id : null;
  if (!isPlainObject(value) || id === null) {
    throw new BadRequestLine("Cannot read the request: it needs an 'id' and a 'method'", null);
  }
  const method = value.method;
  if (typeof method !== "string" || !Object.hasOwn(PARAMS, method)) {
    throw new BadRequestLine(`The printer has no method '${String(method)}'`, id);
  }
  const parsed = v.safeParse(PARAMS[method as Method], value.params ?? []);
  if (!parsed.success) {
    throw new BadRequestLine(`Invalid params of '${method}': ${parsed.issues[0].message}`, id);
  }
  return { id, method: method as Method, params: parsed.output };
}

const encoder = new TextEncoder();

/** A message as one line of JSON (no line break inside: JSON escapes them in strings). */
export function encodeLine(message: ServerMessage | Request): Uint8Array {
  return encoder.encode(JSON.stringify(message) + "\n");
}
