/**
 * The printer across processes: the printer process serves its `Printer` on a Unix socket in the
 * host's data folder ({@linkcode servePrinter}), and the host — restarted for a wider scope or
 * after a crash — drives it through a {@linkcode RemotePrinter}, so the serial port is never
 * reopened (opening a Marlin port resets the board) and the job, targets, history and state
 * survive. The wire protocol: `./protocol.ts`. Each side needs only
 * `--allow-read=<path> --allow-write=<path> --allow-net=unix:<path>` for the socket.
 *
 * @module
 */
export { type PrinterServer, servePrinter, type ServePrinterOptions } from "./serve_printer.ts";
export { RemotePrinter, type RemotePrinterOptions } from "./remote_printer.ts";
export { socketAnswers } from "./listen_socket.ts";
export type {
  Method,
  PrinterView,
  Request,
  RequestId,
  ServerMessage,
  TailUpdate,
  ViewUpdate,
} from "./protocol.ts";
export { fromWireError, toWireError, type WireError } from "./wire_errors.ts";
