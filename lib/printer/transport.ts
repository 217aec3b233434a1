/**
 * The byte stream between the host and a printer: a serial port (a USB adapter, a pseudo-terminal)
 * or a test double. Marlin's protocol (`./marlin/`) runs over it; it knows nothing of lines.
 *
 * @module
 */

/** An open connection to a printer's serial line. */
export interface PrinterTransport {
  /** What the printer sends, as it arrives; ends when the line closes or fails. */
  readonly readable: ReadableStream<Uint8Array>;
  /** Sends bytes to the printer; resolves once they are handed to the line. */
  write(data: Uint8Array): Promise<void>;
  /** Closes the line; safe to call more than once. */
  close(): Promise<void>;
}

/** Options of opening a serial line. */
export interface OpenOptions {
  /** Baud rate (250000, 115200 ...). */
  baudRate: number;
}

/** Opens a printer's serial line by path (`/dev/ttyUSB0`, `/dev/pts/3` ...). */
export type OpenTransport = (path: string, options: OpenOptions) => Promise<PrinterTransport>;
