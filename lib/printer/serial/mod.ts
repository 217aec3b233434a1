/**
 * A printer's serial line: open a tty as a `PrinterTransport`, list the ports a user may pick.
 * Why FFI and which permission it needs: docs/decisions.md ("The printer's serial line").
 *
 * @module
 */
export { openSerialTransport } from "./open.ts";
export { BAUD_RATES, type ListOptions, listSerialPorts, type SerialPortInfo } from "./list.ts";
export { LIBC_PATHS } from "./libc.ts";
