/**
 * A printer's serial line as a {@linkcode PrinterTransport}: any tty a user names (a USB adapter,
 * a board's USB port, a pseudo-terminal), opened exclusively with the line settings of
 * `./line_settings.ts`, read without blocking Deno's event loop: a `poll()` runs on FFI's
 * blocking thread and a pipe wakes it when the line is closed.
 *
 * @module
 */
import type { AppError } from "../../error.ts";
import type { OpenOptions, PrinterTransport } from "../transport.ts";
import {
  badBaudRate,
  baudRateRefused,
  lineClosed,
  lineLost,
  notASerialPort,
  openFailure,
  portBusy,
} from "./errors.ts";
import { C, cString, Errno, errno, type Libc, openLibc } from "./libc.ts";
import { applyLineSettings, isTerminal, LineSettingsError } from "./line_settings.ts";
import { BAUD_RATES, listSerialPorts } from "./list.ts";

const CHUNK = 4096;

/**
 * Opens the serial line at `path` as a {@linkcode PrinterTransport} (an `OpenTransport`).
 * `readable` ends when `close()` is called (or the stream is cancelled) and errors with
 * `UnreachableError` when the line vanishes; the port is then released at once, so a
 * replugged adapter gets its old name back. Like an open socket, an open line keeps the process
 * running until it is closed.
 *
 * @throws {UsageError} a baud rate not in `BAUD_RATES`, a path that is no serial port
 * @throws {NotFoundError} nothing at `path` (the message lists the ports present)
 * @throws {ForbiddenError} no permission on the port (the message says how to get it)
 * @throws {ConflictError} another program holds the port (`code` `busy`)
 * @throws {UnreachableError} no device answers behind the port
 * @throws {SetupError} not Linux, or no FFI access to the C library
 */
export async function openSerialTransport(
  path: string,
  options: OpenOptions,
): Promise<PrinterTransport> {
  if (!BAUD_RATES.includes(options.baudRate)) throw badBaudRate(options.baudRate);
  const libc = openLibc();
  let fd = -1;
  try {
    const kind = fileKind(libc, path);
    if (kind !== null) throw notASerialPort(path, kind);
    fd = libc.symbols.open(cString(path), C.O_RDWR | C.O_NOCTTY | C.O_NONBLOCK | C.O_CLOEXEC, 0);
    if (fd < 0) throw await openFailure(path, errno(libc), listSerialPorts);
    if (!isTerminal(libc, fd)) throw notASerialPort(path, "a device that is not a terminal");
    if (libc.symbols.flock(fd, C.LOCK_EX | C.LOCK_NB) !== 0) throw portBusy(path);
    libc.symbols.ioctl(fd, C.TIOCEXCL, null); // other openers get EBUSY (root excepted)
    try {
      applyLineSettings(libc, fd, options.baudRate);
    } catch (err) {
      if (!(err instanceof LineSettingsError)) throw err;
      if (err.errno !== Errno.EINVAL) throw await openFailure(path, err.errno, listSerialPorts);
      throw baudRateRefused(path, options.baudRate);
    }
    return new SerialLine(libc, fd, path);
  } catch (err) {
    if (fd >= 0) await libc.symbols.close(fd);
    libc.close();
    throw err;
  }
}

/** What `path` is when it is no character device (or null: a device, or nothing there). */
function fileKind(libc: Libc, path: string): string | null {
  const stx = new Uint8Array(256); // struct statx: stx_mode (u16) at 28
  if (libc.symbols.statx === null) return null; // musl before 1.2.5: open() tells
  if (libc.symbols.statx(C.AT_FDCWD, cString(path), 0, C.STATX_TYPE, stx) !== 0) return null;
  const type = new DataView(stx.buffer).getUint16(28, true) & C.S_IFMT;
  if (type === C.S_IFCHR) return null;
  return type === C.S_IFDIR ? "a folder" : type === C.S_IFREG ? "a regular file" : "no device";
}

/** An open tty: one reader loop, writes in order, one close. */
class SerialLine implements PrinterTransport {
  readonly readable: ReadableStream<Uint8Array>;
  #wake = new Int32Array(2); // a pipe: a byte in it ends every poll
  #failure: AppError | null = null;
  #closed = false;
  #pending = new Set<Promise<unknown>>();
  #writes: Promise<void> = Promise.resolve();
  #released: Promise<void> | null = null;

  constructor(readonly libc: Libc, readonly fd: number, readonly path: string) {
    if (libc.symbols.pipe2(new Uint8Array(this.#wake.buffer), C.O_CLOEXEC | C.O_NONBLOCK) !== 0) {
      throw lineLost(path, `no pipe (errno ${errno(libc)})`);
    }
    this.readable = new ReadableStream<Uint8Array>({
      pull: (controller) => this.#pull(controller),
      cancel: () => this.close(),
    });
  }

  async write(data: Uint8Array): Promise<void> {
    const next = this.#writes.then(() => this.#writeAll(data));
    this.#writes = next.catch(() => {});
    return await next;
  }

  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.libc.symbols.write(this.#wake[1]!, new Uint8Array(1), 1n);
    }
    await this.#release();
  }

  async #pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    const buf = new Uint8Array(CHUNK);
    while (true) {
      if (this.#failure) return controller.error(this.#failure);
      if (this.#closed) return controller.close();
      const events = await this.#poll(C.POLLIN);
      if (this.#closed || events === 0) continue;
      const n = Number(this.libc.symbols.read(this.fd, buf, BigInt(CHUNK)));
      if (n > 0) return controller.enqueue(buf.slice(0, n));
      const code = n < 0 ? errno(this.libc) : 0;
      if (n < 0 && (code === Errno.EAGAIN || code === Errno.EINTR)) continue;
      this.#lose(n === 0 || code === Errno.EIO ? "the device hung up" : `read errno ${code}`);
    }
  }

  async #writeAll(data: Uint8Array): Promise<void> {
    let sent = 0;
    while (sent < data.length) {
      if (this.#failure) throw this.#failure;
      if (this.#closed) throw lineClosed(this.path);
      const rest = data.subarray(sent);
      const n = Number(this.libc.symbols.write(this.fd, rest, BigInt(rest.length)));
      if (n >= 0) {
        sent += n;
        continue;
      }
      const code = errno(this.libc);
      if (code === Errno.EAGAIN) await this.#poll(C.POLLOUT);
      else if (code !== Errno.EINTR) this.#lose(`write errno ${code}`);
    }
  }

  /** Waits until the line is ready for `want`, hangs up, or the line is closed. */
  async #poll(want: number): Promise<number> {
    const fds = new Uint8Array(16); // struct pollfd[2]: int fd, short events, short revents
    const view = new DataView(fds.buffer);
    view.setInt32(0, this.fd, true);
    view.setInt16(4, want, true);
    view.setInt32(8, this.#wake[0]!, true);
    view.setInt16(12, C.POLLIN, true);
    const call = this.libc.symbols.poll(fds, 2n, -1);
    this.#pending.add(call);
    try {
      if (await call < 0) return 0; // EINTR: the caller polls again
    } finally {
      this.#pending.delete(call);
    }
    const events = view.getInt16(6, true);
    if (events & (C.POLLERR | C.POLLHUP | C.POLLNVAL) && !(events & want)) {
      this.#lose("the device hung up");
    }
    return events & want;
  }

  /** Marks the line lost and releases the port at once. */
  #lose(detail: string): void {
    this.#failure ??= lineLost(this.path, detail);
    this.#closed = true;
    this.libc.symbols.write(this.#wake[1]!, new Uint8Array(1), 1n);
    void this.#release();
    throw this.#failure;
  }

  /** Closes the port, the pipe and the library once no poll runs on them. */
  #release(): Promise<void> {
    this.#released ??= (async () => {
      await Promise.allSettled([...this.#pending]);
      this.libc.symbols.ioctl(this.fd, C.TIOCNXCL, null);
      for (const fd of [this.fd, this.#wake[0]!, this.#wake[1]!]) await this.libc.symbols.close(fd);
      this.libc.close();
    })();
    return this.#released;
  }
}
