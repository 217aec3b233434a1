/**
 * A printer's line settings on an open tty: raw bytes, any baud rate (250000 is no standard
 * `Bnnn` speed, so Linux's `termios2` with `BOTHER` sets it; the standard ones keep their `Bnnn`
 * code, which older tools such as `stty` read), 8 data bits, no parity, one stop
 * bit, no flow control, and DTR dropped when the port closes (`HUPCL`, as pyserial and
 * OctoPrint leave it; most boards reset when the next open raises DTR again).
 *
 * @module
 */
import { C, Errno, errno, type Libc } from "./libc.ts";

// struct termios2 (asm-generic): 4 flag words, c_line, c_cc[19], then the two speeds.
const SIZE = 44;
const IFLAG = 0, OFLAG = 4, CFLAG = 8, LFLAG = 12, LINE = 16, CC = 17, ISPEED = 36, OSPEED = 40;
const VTIME = 5, VMIN = 6;
const BOTHER = 0o10000, CS8 = 0o60, CREAD = 0o200, HUPCL = 0o2000, CLOCAL = 0o4000;

/** The `Bnnn` codes of the standard speeds; any other speed is `BOTHER`. */
const SPEED_CODES: Record<number, number> = {
  9600: 0o15,
  19200: 0o16,
  38400: 0o17,
  57600: 0o10001,
  115200: 0o10002,
  230400: 0o10003,
};

/** Why the settings could not be made: `errno` of the call that failed. */
export class LineSettingsError extends Error {
  constructor(readonly step: "read" | "write" | "speed", readonly errno: number) {
    super(`termios ${step} failed (errno ${errno})`);
  }
}

/** Reads the tty's settings; fails with `ENOTTY` when `fd` is no terminal. */
function readSettings(libc: Libc, fd: number): DataView {
  const buf = new Uint8Array(SIZE);
  if (libc.symbols.ioctl(fd, C.TCGETS2, buf) !== 0) {
    throw new LineSettingsError("read", errno(libc));
  }
  return new DataView(buf.buffer);
}

/** Whether `fd` is a terminal (a serial port, a pseudo-terminal). */
export function isTerminal(libc: Libc, fd: number): boolean {
  try {
    readSettings(libc, fd);
    return true;
  } catch (err) {
    if (err instanceof LineSettingsError) return false;
    throw err;
  }
}

/** The tty's output speed in baud. */
export function lineSpeed(libc: Libc, fd: number): number {
  return readSettings(libc, fd).getUint32(OSPEED, true);
}

/** Sets raw 8N1 at `baudRate` without flow control; checks the speed was taken. */
export function applyLineSettings(libc: Libc, fd: number, baudRate: number): void {
  const t = readSettings(libc, fd);
  t.setUint32(IFLAG, 0, true); // no break, parity, CR/NL or XON/XOFF handling
  t.setUint32(OFLAG, 0, true); // no output processing
  t.setUint32(LFLAG, 0, true); // no echo, no line editing, no signals
  const speed = SPEED_CODES[baudRate] ?? BOTHER;
  t.setUint32(CFLAG, speed | CS8 | CREAD | CLOCAL | HUPCL, true); // 8N1, no RTS/CTS
  t.setUint8(LINE, 0);
  t.setUint8(CC + VMIN, 1);
  t.setUint8(CC + VTIME, 0);
  t.setUint32(ISPEED, baudRate, true);
  t.setUint32(OSPEED, baudRate, true);
  if (libc.symbols.ioctl(fd, C.TCSETS2, new Uint8Array(t.buffer)) !== 0) {
    throw new LineSettingsError("write", errno(libc));
  }
  if (lineSpeed(libc, fd) !== baudRate) throw new LineSettingsError("speed", Errno.EINVAL);
  libc.symbols.ioctlInt(fd, C.TCFLSH, C.TCIFLUSH); // drop what arrived before
}
