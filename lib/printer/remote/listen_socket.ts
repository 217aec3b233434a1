/**
 * A Unix socket that one process holds: listening takes over the file a killed process left
 * (a socket nothing answers on), refuses a path a live process listens on or that holds anything
 * but a socket, and gives the file to its owner alone.
 *
 * Deno flags: `--allow-read=<path> --allow-write=<path> --allow-net=unix:<path>` (the socket's
 * path alone, not its folder).
 *
 * @module
 */
import { ConflictError } from "../../error.ts";

/** Whether a process listens on the socket at `path` (false for a file nothing answers on). */
export async function socketAnswers(path: string): Promise<boolean> {
  try {
    (await Deno.connect({ transport: "unix", path })).close();
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.ConnectionRefused || err instanceof Deno.errors.NotFound) {
      return false;
    }
    throw err;
  }
}

/**
 * Listens on a Unix socket at `path`, mode 0600. The file is created under the process's umask
 * and restricted before any connection is accepted; connecting needs write permission on it, so
 * with a usual umask (022, 077) no other user can connect even in that instant.
 *
 * @throws {ConflictError} when a live process listens at `path` (code `socket_in_use`), or
 * something other than a socket is there (code `not_a_socket`).
 */
export async function listenSocket(path: string): Promise<Deno.UnixListener> {
  for (let attempt = 0;; attempt++) {
    try {
      const listener = Deno.listen({ transport: "unix", path });
      try {
        Deno.chmodSync(path, 0o600);
      } catch (err) {
        listener.close();
        throw err;
      }
      return listener;
    } catch (err) {
      if (!(err instanceof Deno.errors.AddrInUse) || attempt === 2) throw err;
    }
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) continue; // gone meanwhile
      throw err;
    }
    if (!info.isSocket) {
      throw new ConflictError(
        `Cannot listen at ${path}: a file that is not a socket is there; move it away`,
        { code: "not_a_socket" },
      );
    }
    if (await socketAnswers(path)) {
      throw new ConflictError(
        `Cannot listen at ${path}: another printer process is running and listens there; ` +
          "stop it first (only one process may hold the printer)",
        { code: "socket_in_use" },
      );
    }
    // A socket file left by a process that was killed: nothing answers on it.
    await Deno.remove(path).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
  }
}
