/**
 * One tray icon per dashboard URL. A tray listens on a Unix socket named after its URL before it
 * shows an icon; a second tray for the same URL connects there, reads the first one's process id
 * and ends (the icon that exists is reused). A socket file left by a tray that died refuses the
 * connection and is replaced. Sockets need no /proc (which Deno's `--allow-read` does not open)
 * and cannot be fooled by a recycled process id. They live in `$XDG_RUNTIME_DIR/localbench/`
 * (cleared at logout), else in `<data dir>/run/`.
 *
 * @module
 */
import { join } from "node:path";
import { dataDir, type EnvReader } from "../config/mod.ts";

/** Outcome of {@linkcode claimTray}. */
export type TrayClaim =
  | { owner: true; release(): Promise<void> }
  | { owner: false; pid: number | null };

/** The folder of the tray sockets. */
export function trayLockDir(env: EnvReader): string {
  const runtime = env("XDG_RUNTIME_DIR");
  return runtime && runtime.startsWith("/")
    ? join(runtime, "localbench")
    : join(dataDir(env), "run");
}

/** The socket of the tray watching `url` (one per normalised URL). */
export async function trayLockPath(url: string, env: EnvReader): Promise<string> {
  const u = new URL(url);
  const key = `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`.toLowerCase();
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  const hex = [...new Uint8Array(digest)].slice(0, 8).map((b) => b.toString(16).padStart(2, "0"));
  return join(trayLockDir(env), `tray-${hex.join("")}.sock`);
}

/** The process id the tray at `path` tells, or undefined when no tray answers there. */
async function ask(path: string): Promise<number | null | undefined> {
  let conn: Deno.UnixConn;
  try {
    conn = await Deno.connect({ transport: "unix", path });
  } catch {
    return undefined; // no socket, or a dead tray's file
  }
  try {
    const buf = new Uint8Array(32);
    const n = await Promise.race([
      conn.read(buf),
      new Promise<null>((r) => setTimeout(() => r(null), 2000)),
    ]);
    const pid = Number(new TextDecoder().decode(buf.subarray(0, n ?? 0)).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } finally {
    conn.close();
  }
}

/** Listens at `path`, answering every connection with this process id. */
function serve(path: string): Deno.UnixListener {
  const listener = Deno.listen({ transport: "unix", path });
  const me = new TextEncoder().encode(`${Deno.pid}\n`);
  (async () => {
    for await (const conn of listener) {
      await conn.write(me).catch(() => 0);
      conn.close();
    }
  })().catch(() => undefined); // the listener was closed
  return listener;
}

/** Claims the tray of `url` for this process, or names the live tray that has it. */
export async function claimTray(url: string, env: EnvReader): Promise<TrayClaim> {
  const path = await trayLockPath(url, env);
  await Deno.mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt++) {
    const pid = await ask(path);
    if (pid !== undefined) return { owner: false, pid };
    let listener: Deno.UnixListener;
    try {
      listener = serve(path);
    } catch (err) {
      if (!(err instanceof Deno.errors.AddrInUse)) throw err;
      // A file is there: a tray that just started (asked again) or one that died (removed).
      if ((await ask(path)) === undefined) await Deno.remove(path).catch(() => undefined);
      continue;
    }
    return {
      owner: true,
      release: async () => {
        listener.close();
        await Deno.remove(path).catch(() => undefined);
      },
    };
  }
  throw new Error(`Cannot claim the tray of ${url}: ${path} keeps changing`);
}
