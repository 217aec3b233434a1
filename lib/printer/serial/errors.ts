/**
 * What can go wrong with a printer's serial port, each as an error of `lib/error.ts` whose
 * message says how to fix it. Callers tell them apart by class; the `code` is for the web.
 *
 * @module
 */
import {
  type AppError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnreachableError,
  UsageError,
} from "../../error.ts";
import { Errno } from "./libc.ts";
import { BAUD_RATES, type SerialPortInfo } from "./list.ts";

/** A baud rate that is not one of {@linkcode BAUD_RATES}. */
export function badBaudRate(baudRate: number): UsageError {
  return new UsageError(
    `Baud rate ${baudRate} is not offered: use one of ${BAUD_RATES.join(", ")} ` +
      "(Marlin's default is 250000 or 115200)",
    { code: "invalid_baud_rate" },
  );
}

/** A port whose adapter does not take `baudRate`. */
export function baudRateRefused(path: string, baudRate: number): UsageError {
  return new UsageError(`${path} does not run at ${baudRate} baud: pick another rate`, {
    code: "invalid_baud_rate",
  });
}

/** No port at `path`; `ports` are those present. */
export function portNotFound(path: string, ports: readonly SerialPortInfo[]): NotFoundError {
  const present = ports.length === 0
    ? "No serial port is present: is the printer plugged in over USB and switched on?"
    : `The ports present: ${ports.map((p) => p.path).join(", ")}.`;
  return new NotFoundError(`No serial port at ${path}. ${present}`, { code: "port_not_found" });
}

/** `path` exists but is no serial line (a file, a folder, another device). */
export function notASerialPort(path: string, what: string): UsageError {
  return new UsageError(`${path} is not a serial port: it is ${what}`, {
    code: "not_a_serial_port",
  });
}

/** The user may not open `path`. */
export function portForbidden(path: string): ForbiddenError {
  return new ForbiddenError(
    `No permission to open ${path}: add your user to the \`dialout\` group ` +
      "(`uucp` on Arch): `sudo usermod -aG dialout $USER`, then log in again",
    { code: "port_forbidden" },
  );
}

/** Another program holds `path`. */
export function portBusy(path: string): ConflictError {
  return new ConflictError(
    `${path} is in use by another program (OctoPrint, a serial console, another localbench?): ` +
      "close it, then connect again",
    { code: "busy" },
  );
}

/** The line vanished while open (the cable pulled, the printer switched off). */
export function lineLost(path: string, detail: string): UnreachableError {
  return new UnreachableError(
    `The serial line ${path} was lost (${detail}): is the USB cable plugged in and the ` +
      "printer switched on? Connect again once it is back",
    { code: "line_lost" },
  );
}

/** Writing to or reading from a line that was closed. */
export function lineClosed(path: string): ConflictError {
  return new ConflictError(`The serial line ${path} is closed`, { code: "line_closed" });
}

/** The error of an `errno` from opening or setting up `path`. */
export async function openFailure(
  path: string,
  code: number,
  ports: () => Promise<SerialPortInfo[]>,
): Promise<AppError> {
  switch (code) {
    case Errno.ENOENT:
    case Errno.ENOTDIR:
      return portNotFound(path, await ports());
    case Errno.EACCES:
    case Errno.EPERM:
      return portForbidden(path);
    case Errno.EBUSY:
    case Errno.EAGAIN: // flock: another holder
      return portBusy(path);
    case Errno.EISDIR:
      return notASerialPort(path, "a folder");
    case Errno.ENOTTY:
      return notASerialPort(path, "a device that is not a terminal");
    case Errno.ENXIO:
    case Errno.ENODEV:
    case Errno.EIO:
      return lineLost(path, "no device answers behind it");
    default:
      return new UnreachableError(`Cannot open ${path} (errno ${code})`, { code: "port_error" });
  }
}
