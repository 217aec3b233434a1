/**
 * The C library calls the serial line needs, through Deno's FFI: Deno 2.9 refuses `Deno.open`,
 * `Deno.stat` and `Deno.readDir` on anything below `/dev` without `--allow-all`, and npm
 * `serialport` opens the port but cannot read or write it under Deno (docs/decisions.md, "The
 * printer's serial line"). Linux on 64-bit x86 and ARM only: the constants and struct layouts
 * below are those of Linux's generic ABI, which both share.
 *
 * @module
 */
import { SetupError } from "../../error.ts";

/** Where the C library may be; the host's `--allow-ffi` lists these (docs/plugin-host.md). */
export const LIBC_PATHS: readonly string[] = [
  "/lib/x86_64-linux-gnu/libc.so.6",
  "/lib/aarch64-linux-gnu/libc.so.6",
  "/usr/lib/x86_64-linux-gnu/libc.so.6",
  "/usr/lib/aarch64-linux-gnu/libc.so.6",
  "/lib64/libc.so.6",
  "/usr/lib64/libc.so.6",
  "/usr/lib/libc.so.6",
  "/lib/ld-musl-x86_64.so.1",
  "/lib/ld-musl-aarch64.so.1",
];

// C pointers the line reads are plain addresses (u64) read through memcpy: Deno's pointer views
// need `--allow-ffi` without a path, which would widen the permission to any library.
const SYMBOLS = {
  __errno_location: { parameters: [], result: "u64" },
  memcpy: { parameters: ["buffer", "u64", "usize"], result: "u64" },
  strlen: { parameters: ["u64"], result: "usize" },
  open: { parameters: ["buffer", "i32", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32", nonblocking: true },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  poll: { parameters: ["buffer", "u64", "i32"], result: "i32", nonblocking: true },
  ioctl: { parameters: ["i32", "u64", "buffer"], result: "i32" },
  ioctlInt: { name: "ioctl", parameters: ["i32", "u64", "i64"], result: "i32" },
  flock: { parameters: ["i32", "i32"], result: "i32" },
  pipe2: { parameters: ["buffer", "i32"], result: "i32" },
  statx: { parameters: ["i32", "buffer", "i32", "u32", "buffer"], result: "i32", optional: true },
  glob: { parameters: ["buffer", "i32", "u64", "buffer"], result: "i32" },
  globfree: { parameters: ["buffer"], result: "void" },
  realpath: { parameters: ["buffer", "u64"], result: "u64" },
  free: { parameters: ["u64"], result: "void" },
} as const;

/** The C library, opened; `close()` it when done. */
export type Libc = Deno.DynamicLibrary<typeof SYMBOLS>;

/** Linux's numbers (asm-generic: the same on x86-64 and arm64); 64-bit C arguments as bigint. */
export const C = {
  O_RDWR: 0o2,
  O_NOCTTY: 0o400,
  O_NONBLOCK: 0o4000,
  O_CLOEXEC: 0o2000000,
  LOCK_EX: 2,
  LOCK_NB: 4,
  POLLIN: 0x1,
  POLLOUT: 0x4,
  POLLERR: 0x8,
  POLLHUP: 0x10,
  POLLNVAL: 0x20,
  TCGETS2: 0x802c542an,
  TCSETS2: 0x402c542bn,
  TCFLSH: 0x540bn,
  TCIFLUSH: 0n,
  TIOCEXCL: 0x540cn,
  TIOCNXCL: 0x540dn,
  AT_FDCWD: -100,
  STATX_TYPE: 1,
  S_IFMT: 0o170000,
  S_IFDIR: 0o040000,
  S_IFCHR: 0o020000,
  S_IFREG: 0o100000,
} as const;

/** The `errno` values this module tells apart. */
export const Errno = {
  EPERM: 1,
  ENOENT: 2,
  EINTR: 4,
  EIO: 5,
  ENXIO: 6,
  EAGAIN: 11,
  EACCES: 13,
  EBUSY: 16,
  ENODEV: 19,
  ENOTDIR: 20,
  EISDIR: 21,
  EINVAL: 22,
  ENOTTY: 25,
} as const;

/** Opens the C library at the first of {@linkcode LIBC_PATHS} that loads. */
export function openLibc(): Libc {
  if (Deno.build.os !== "linux" || !["x86_64", "aarch64"].includes(Deno.build.arch)) {
    throw new SetupError(
      `Serial ports are supported on 64-bit Linux only (this is ${Deno.build.os}/${Deno.build.arch})`,
    );
  }
  let denied = false;
  for (const path of LIBC_PATHS) {
    try {
      return Deno.dlopen(path, SYMBOLS);
    } catch (err) {
      if (err instanceof Deno.errors.NotCapable) denied = true;
    }
  }
  throw new SetupError(
    denied
      ? `Opening a serial port needs the C library: run with --allow-ffi=${LIBC_PATHS.join(",")}`
      : `Cannot find the C library (looked at ${LIBC_PATHS.join(", ")})`,
  );
}

/** The calling thread's `errno`: read it right after the call that failed. */
export function errno(libc: Libc): number {
  return new DataView(peek(libc, BigInt(libc.symbols.__errno_location()), 4).buffer).getInt32(
    0,
    true,
  );
}

/** A copy of `length` bytes at the C address `address`. */
export function peek(libc: Libc, address: bigint, length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  libc.symbols.memcpy(bytes, address, BigInt(length));
  return bytes;
}

/** The C string at `address`. */
export function peekCString(libc: Libc, address: bigint): string {
  return new TextDecoder().decode(peek(libc, address, Number(libc.symbols.strlen(address))));
}

/** A C string of `text`. */
export function cString(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text + "\0");
}
