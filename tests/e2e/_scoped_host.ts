/**
 * Runs `host.ts` exactly as `deno task host` does (the task's own permission flags, read from
 * deno.json; the launcher then starts the permission-scoped host), with its output captured, and
 * small HTTP and push-socket helpers against it.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { openWs, waitFor, type WsClient } from "../lib/host/_helpers.ts";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The launcher flags of `deno task host` (of the project at `root`), `$(deno eval ...)` resolved. */
export async function hostTaskFlags(root = ROOT): Promise<string[]> {
  const task = JSON.parse(await Deno.readTextFile(`${root}/deno.json`)).tasks.host as string;
  return task
    .replace(/"\$\(deno eval 'console\.log\(Deno\.execPath\(\)\)'\)"/g, Deno.execPath())
    .split(/\s+/)
    .filter((w) => w.startsWith("--allow") || w.startsWith("--deny"));
}

/** A running launcher + scoped host. */
export interface ScopedHost {
  base: string;
  port: string;
  key: string;
  /** Everything the launcher printed so far. */
  stdout(): string;
  stderr(): string;
  /** A JSON request with the admin key. */
  call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A push-socket client. */
  push(): Promise<WsClient>;
  /** Waits until `GET path` answers 200 again (after a restart) and `check` holds. */
  until<T>(
    what: string,
    check: () => Promise<T | false | null | undefined>,
    timeoutMs?: number,
  ): Promise<T>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<{ code: number; stderr: string }>;
  /** Sends a signal to the launcher alone. */
  kill(signal: Deno.Signal): void;
}

/** Options of {@linkcode startScopedHost}. */
export interface ScopedHostOptions {
  dataDir: string;
  /** Extra host arguments. @default ["--no-ui"] */
  args?: string[];
  /** The admin key when the data folder already has one (a second start). */
  key?: string;
  /** Extra environment. */
  env?: Record<string, string>;
  /** The project to run (a copy of this one). @default this repository */
  root?: string;
}

/** Starts the host the way `deno task host -- --port 0` does. */
export async function startScopedHost(options: ScopedHostOptions): Promise<ScopedHost> {
  const pass = (name: string) => Deno.env.get(name) ?? "";
  const root = options.root ?? ROOT;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...await hostTaskFlags(root),
      `${root}/host.ts`,
      "--port",
      "0",
      ...(options.args ?? ["--no-ui"]),
    ],
    cwd: root,
    clearEnv: true,
    env: {
      LOCALBENCH_DATA_DIR: options.dataDir,
      HOME: pass("HOME"),
      PATH: pass("PATH"),
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: pass("DENO_DIR") } : {}),
      NO_COLOR: "1",
      ...options.env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out: string[] = [];
  const err: string[] = [];
  const pump = async (s: ReadableStream<Uint8Array>, into: string[]) => {
    const decoder = new TextDecoder();
    for await (const chunk of s) into.push(decoder.decode(chunk, { stream: true }));
  };
  const pumps = Promise.all([pump(child.stdout, out), pump(child.stderr, err)]);
  const port = await waitFor(
    () => /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out.join(""))?.[1],
    30_000,
  ).catch((e) => {
    child.kill("SIGKILL");
    throw new Error(`${e}\nstdout: ${out.join("")}\nstderr: ${err.join("")}`);
  });
  const key = options.key ?? out.join("").split("\n")[1]!.trim();
  const base = `http://127.0.0.1:${port}`;
  const call: ScopedHost["call"] = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "X-Api-Key": key, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json().catch(() => ({})) };
  };
  return {
    base,
    port,
    key,
    stdout: () => out.join(""),
    stderr: () => err.join(""),
    call,
    push: () => openWs(`ws://127.0.0.1:${port}/push`, { "X-Api-Key": key }),
    async until<T>(
      what: string,
      check: () => Promise<T | false | null | undefined>,
      timeoutMs = 15_000,
    ): Promise<T> {
      const value = await waitFor(async () => {
        try {
          return await check();
        } catch {
          return undefined; // the host is restarting
        }
      }, timeoutMs).catch((e) => {
        throw new Error(`${what}: ${e}\nstdout: ${out.join("")}\nstderr: ${err.join("")}`);
      });
      return value as T;
    },
    kill(signal) {
      child.kill(signal);
    },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // already gone
      }
      const status = await child.status;
      await pumps;
      return { code: status.code, stderr: err.join("") };
    },
  };
}
