/**
 * Shared test helpers: temporary folders and environments.
 *
 * @module
 */
import { join } from "node:path";
import type { EnvReader } from "../lib/config/mod.ts";
import { findOnPath } from "../lib/engine/which.ts";

/** A temporary localbench environment: config and data folders under one temp dir. */
export interface TempEnv {
  root: string;
  configDir: string;
  dataDir: string;
  env: EnvReader;
  /** The same variables as a record (for child processes). */
  vars: Record<string, string>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Creates a temporary environment; dispose it with `await using`. */
export async function tempEnv(): Promise<TempEnv> {
  const root = await Deno.makeTempDir({ prefix: "localbench-test-" });
  const configDir = join(root, "config");
  const dataDir = join(root, "data");
  await Deno.mkdir(configDir, { recursive: true });
  const vars: Record<string, string> = {
    HOME: root,
    LOCALBENCH_CONFIG_DIR: configDir,
    LOCALBENCH_DATA_DIR: dataDir,
  };
  return {
    root,
    configDir,
    dataDir,
    env: (name) => vars[name],
    vars,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** Writes a JSON file (creating folders). */
export async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(
    path,
    typeof value === "string" ? value : JSON.stringify(value, null, 2),
  );
}

/** Root of the repository. */
export const REPO_ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/**
 * The permission flags a program really runs with: those of a `deno run` task of deno.json
 * (`bench`, `webapp`...), or `compiled` for tools/compile.sh's `PERMS` (the compiled programs).
 * Tests of what a permission allows run their child under these, never under `-A`.
 */
export function programPermissions(program: string): string[] {
  if (program === "compiled") {
    const sh = Deno.readTextFileSync(join(REPO_ROOT, "tools/compile.sh"));
    const perms = /^PERMS=\(([^)]*)\)/m.exec(sh);
    if (!perms) throw new Error("tools/compile.sh has no PERMS=(...) line");
    return perms[1]!.trim().split(/\s+/);
  }
  const tasks = JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "deno.json"))).tasks;
  const words = String(tasks[program] ?? "").split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "run") throw new Error(`no 'deno run' task ${program}`);
  return words.slice(2).filter((w) => w.startsWith("--allow-"));
}

/** Runs a Deno program of the repository; returns its exit code and output. */
export async function runDeno(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd ?? REPO_ROOT,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

let built: Promise<void> | null = null;

/**
 * Makes sure the island bundles of `static/_islands/` are there, as `deno task build` writes
 * them (the test runner builds first; this covers a test file run on its own on a fresh tree).
 */
export function ensureIslandsBuilt(): Promise<void> {
  built ??= (async () => {
    const { assertIslandsBuilt } = await import("../lib/web/server.ts");
    const { manifest } = await import("../manifest.gen.ts");
    try {
      await assertIslandsBuilt(manifest, `${REPO_ROOT}/static`);
      return;
    } catch {
      // Not built yet (or built from other sources): build now.
    }
    const r = await runDeno(["run", "-A", "tools/build.ts", "--no-manifest"]);
    if (r.code !== 0) throw new Error(`deno task build failed: ${r.stderr}${r.stdout}`);
  })();
  return built;
}

/** Folders of system programs that a user's `PATH` often lacks (mosquitto lives in /usr/sbin). */
const SYSTEM_DIRS = "/usr/local/sbin:/usr/sbin:/sbin:/usr/local/bin:/usr/bin:/bin";

/**
 * The path of a system program found on `PATH` or in the system folders, whatever the user's
 * `PATH`; the bare name when it is nowhere (spawning it then fails with the usual NotFound).
 */
export function systemProgram(name: string, path = Deno.env.get("PATH") ?? ""): string {
  return findOnPath(name, `${path}:${SYSTEM_DIRS}`) ?? name;
}

/** Options of {@linkcode waitFor}. */
export interface WaitOptions {
  /** What is awaited, for the error. @default "the condition" */
  what?: string;
  /** @default 10000 */
  timeoutMs?: number;
  /** Pause between checks. @default 10 */
  intervalMs?: number;
}

/**
 * The one wait of the tests: polls `check` (real time, bounded) until it returns a truthy value,
 * and returns it; throws naming `what` after the timeout. The second argument is the timeout
 * (`waitFor(check, 2000)`), what is awaited (`waitFor(check, "the hub", 10_000)`) or
 * {@linkcode WaitOptions}.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: number | string | WaitOptions = {},
  timeoutMs?: number,
): Promise<Exclude<T, false | null | undefined | 0 | "">> {
  const o: WaitOptions = typeof options === "number"
    ? { timeoutMs: options }
    : typeof options === "string"
    ? { what: options, timeoutMs }
    : options;
  const ms = o.timeoutMs ?? 10_000;
  const end = Date.now() + ms;
  while (true) {
    const v = await check();
    if (v) return v as Exclude<T, false | null | undefined | 0 | "">;
    if (Date.now() > end) {
      throw new Error(`Timed out after ${ms} ms waiting for ${o.what ?? "the condition"}`);
    }
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 10));
  }
}

/**
 * Stops a `Deno.serve` server started with `force.signal`: one abort (aborting a server whose
 * `shutdown()` is under way throws an uncaught BadResource inside Deno), then its end awaited
 * for `ms` at most — a push socket whose browser is gone can hold Deno's graceful shutdown open
 * (denoland/deno#22387).
 */
export async function stopServer(
  server: Deno.HttpServer,
  force: AbortController,
  ms = 10_000,
): Promise<void> {
  force.abort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([server.finished, new Promise((r) => timer = setTimeout(r, ms))])
    .finally(() => clearTimeout(timer));
}
