/**
 * The serial ports a user may pick, and the baud rates, as OctoPrint offers them.
 *
 * @module
 */
import { cString, type Libc, openLibc, peek, peekCString } from "./libc.ts";

/** The baud rates a printer's port may be opened at (OctoPrint's list). */
export const BAUD_RATES: readonly number[] = [250000, 230400, 115200, 57600, 38400, 19200, 9600];

/** The patterns of the ports offered: USB serial adapters, USB CDC boards and their stable names. */
const PATTERNS = ["/dev/ttyUSB*", "/dev/ttyACM*", "/dev/serial/by-id/*"];

/** One port to offer: one per device, whatever its names. */
export interface SerialPortInfo {
  /** The name to show and open (`/dev/ttyUSB0`; a configured extra port as configured). */
  path: string;
  /** The device node it leads to once links are followed (`/dev/ttyUSB0`, `/dev/pts/3`). */
  device: string;
  /** Other names of the same device (`/dev/serial/by-id/usb-Prusa…`, configured links). */
  aliases: string[];
}

/** Options of {@linkcode listSerialPorts}. */
export interface ListOptions {
  /** Ports to offer besides the usual ones (a pseudo-terminal, `/dev/ttyAMA0`), if they exist. */
  extra?: readonly string[];
  /** The root the paths are read under (a test's folder of fake device entries). @default "/" */
  root?: string;
}

/**
 * The serial ports present: `/dev/ttyUSB*`, `/dev/ttyACM*`, `/dev/serial/by-id/*` and the
 * `extra` ports that exist. A link that leads to a device already listed (a by-id name) is an
 * alias of it, not a second entry; the list is sorted by path, numbers in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listSerialPorts } from "./list.ts";
 * const root = await Deno.makeTempDir();
 * await Deno.mkdir(`${root}/dev/serial/by-id`, { recursive: true });
 * await Deno.writeTextFile(`${root}/dev/ttyUSB0`, "");
 * await Deno.symlink("../../ttyUSB0", `${root}/dev/serial/by-id/usb-FTDI-if00`);
 * assert.deepEqual(await listSerialPorts({ root }), [
 *   { path: "/dev/ttyUSB0", device: "/dev/ttyUSB0", aliases: ["/dev/serial/by-id/usb-FTDI-if00"] },
 * ]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function listSerialPorts(options: ListOptions = {}): Promise<SerialPortInfo[]> {
  const root = (options.root ?? "/").replace(/\/+$/, "");
  const libc = openLibc();
  try {
    const found = PATTERNS.flatMap((pattern) => glob(libc, root + pattern));
    const extra = (options.extra ?? []).map((path) => root + path);
    const names = new Map<string, string[]>(); // device → the names that lead to it
    for (const full of [...found, ...extra]) {
      const real = realPath(libc, full);
      if (real === null) continue; // missing, or a link to nothing
      const [path, device] = [full.slice(root.length), real.slice(root.length)];
      const known = names.get(device) ?? [];
      if (!known.includes(path)) names.set(device, [...known, path]);
    }
    const order = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });
    const ports = [...names].map(([device, paths]) => {
      const path = paths.includes(device) ? device : paths[0]!;
      return { path, device, aliases: paths.filter((p) => p !== path).sort(order) };
    }).sort((a, b) => order(a.path, b.path));
    return Promise.resolve(ports);
  } finally {
    libc.close();
  }
}

/** The paths matching `pattern` (none when nothing matches or the folder is missing). */
function glob(libc: Libc, pattern: string): string[] {
  const globT = new Uint8Array(128); // glob_t: gl_pathc at 0, gl_pathv at 8 (64-bit)
  if (libc.symbols.glob(cString(pattern), 0, 0n, globT) !== 0) return [];
  try {
    const view = new DataView(globT.buffer);
    const count = Number(view.getBigUint64(0, true));
    const vector = new DataView(peek(libc, view.getBigUint64(8, true), count * 8).buffer);
    return Array.from(
      { length: count },
      (_, i) => peekCString(libc, vector.getBigUint64(i * 8, true)),
    );
  } finally {
    libc.symbols.globfree(globT);
  }
}

/** `path` with every link followed, or null when it leads nowhere. */
export function realPath(libc: Libc, path: string): string | null {
  const resolved = BigInt(libc.symbols.realpath(cString(path), 0n));
  if (resolved === 0n) return null;
  try {
    return peekCString(libc, resolved);
  } finally {
    libc.symbols.free(resolved);
  }
}
