/**
 * Wrapper of LM Studio's `lms` command: locate it (`~/.lmstudio/bin/lms`, then `PATH`), list
 * downloaded models (`lms ls --json`, camelCase SDK fields), server status and start, unload all,
 * and the version; each call has a timeout. The home directory, `PATH` and the process runner are
 * injectable so tests can use a fake `lms`.
 *
 * @module
 */

import { isFileSync } from "../fs.ts";
import { join } from "node:path";
import { SetupError, UnreachableError, UpstreamError, UpstreamTimeoutError } from "../error.ts";
import { denoRunner, type ProcessRunner } from "./process.ts";
import { parseVersion } from "./version.ts";
import type { SdkModelEntry } from "./lmstudio_models.ts";

/** One entry of `lms ls --json` (the SDK's camelCase model info; newer fields optional). */
export type LmsModelEntry = SdkModelEntry;

/** Options of {@linkcode LmsCli}. */
export interface LmsCliOptions {
  /** Home directory. @default $HOME */
  home?: string;
  /** Search path. @default $PATH */
  path?: string;
  /** @default denoRunner */
  runner?: ProcessRunner;
  /** Timeout of each command. @default 30_000 */
  timeoutMs?: number;
  /** Timeout of `lms server start`. @default 60_000 */
  startTimeoutMs?: number;
}

/** The `lms` command. */
export class LmsCli {
  readonly #home: string;
  readonly #path: string;
  readonly #runner: ProcessRunner;
  readonly #timeoutMs: number;
  readonly #startTimeoutMs: number;

  constructor(options: LmsCliOptions = {}) {
    this.#home = options.home ?? Deno.env.get("HOME") ?? "";
    this.#path = options.path ?? Deno.env.get("PATH") ?? "";
    this.#runner = options.runner ?? denoRunner;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#startTimeoutMs = options.startTimeoutMs ?? 60_000;
  }

  /** Path of `lms`: `~/.lmstudio/bin/lms` when present, else the first on `PATH`, else null. */
  locate(): string | null {
    const own = join(this.#home, ".lmstudio", "bin", "lms");
    if (this.#home !== "" && isFileSync(own)) return own;
    for (const dir of this.#path.split(":")) {
      if (dir !== "" && isFileSync(join(dir, "lms"))) return join(dir, "lms");
    }
    return null;
  }

  async #run(args: string[], timeoutMs = this.#timeoutMs): Promise<string> {
    const cmd = this.locate();
    if (cmd === null) {
      throw new SetupError("Cannot find the lms command: looked in ~/.lmstudio/bin and PATH", {
        code: "lms_not_found",
      });
    }
    const res = await this.#runner.run(cmd, args, { timeoutMs });
    const line = `lms ${args.join(" ")}`;
    if (res.timedOut) {
      throw new UpstreamTimeoutError(
        `Cannot run '${line}': it did not finish within ${timeoutMs} ms`,
      );
    }
    if (res.code !== 0) {
      const detail = (res.stderr.trim() || res.stdout.trim()).split("\n")[0] ?? "";
      throw new UpstreamError(
        `Cannot run '${line}': exit code ${res.code}${detail ? `: ${detail}` : ""}`,
        {
          code: "lms_failed",
        },
      );
    }
    return res.stdout;
  }

  /** `lms ls --json`. */
  async ls(): Promise<LmsModelEntry[]> {
    const out = await this.#run(["ls", "--json"]);
    try {
      const parsed = JSON.parse(out);
      if (!Array.isArray(parsed)) throw new SyntaxError("not an array");
      return parsed as LmsModelEntry[];
    } catch {
      throw new UpstreamError("Cannot read 'lms ls --json': the output is not a JSON array", {
        code: "bad_response",
      });
    }
  }

  /** `lms server status --json`: whether the server runs, and its port. */
  async serverStatus(): Promise<{ running: boolean; port: number | null }> {
    const cmd = this.locate();
    if (cmd === null) {
      return this.#run(["server", "status"]).then(() => ({ running: false, port: null }));
    }
    const res = await this.#runner.run(cmd, ["server", "status", "--json", "--quiet"], {
      timeoutMs: this.#timeoutMs,
    });
    if (res.timedOut) {
      throw new UpstreamTimeoutError(
        `Cannot run 'lms server status': it did not finish within ${this.#timeoutMs} ms`,
      );
    }
    try {
      const s = JSON.parse(res.stdout) as { running?: unknown; port?: unknown };
      return { running: s.running === true, port: typeof s.port === "number" ? s.port : null };
    } catch {
      const text = res.stdout + res.stderr;
      const running = res.code === 0 && /running|port/i.test(text) && !/not running/i.test(text);
      const port = /port\D*(\d+)/i.exec(text);
      return { running, port: running && port ? Number(port[1]) : null };
    }
  }

  /** `lms server start [--port N]`. */
  async serverStart(port?: number): Promise<void> {
    await this.#run(
      ["server", "start", ...(port === undefined ? [] : ["--port", String(port)])],
      this.#startTimeoutMs,
    );
  }

  /** `lms unload --all`. */
  async unloadAll(): Promise<void> {
    await this.#run(["unload", "--all"]);
  }

  /** `lms version`: the `X.Y.Z` it prints, or null. */
  async version(): Promise<string | null> {
    return parseVersion(await this.#run(["version"]));
  }
}

/** Options of {@linkcode ensureLmsServer}. */
export interface EnsureServerOptions {
  /** Whether the model server answers (e.g. a `GET /api/v1/models`). */
  isUp: () => Promise<boolean>;
  /** Port passed to `lms server start`. */
  port?: number;
  /** @default 2000 */
  pollMs?: number;
  /** @default 60_000 */
  timeoutMs?: number;
}

/**
 * Starts the model server with `lms server start` when it does not answer, then polls until it
 * does. Returns true when it had to start it.
 *
 * @throws {UnreachableError} when the server still does not answer after `timeoutMs`
 */
export async function ensureLmsServer(cli: LmsCli, options: EnsureServerOptions): Promise<boolean> {
  if (await options.isUp()) return false;
  await cli.serverStart(options.port);
  const pollMs = options.pollMs ?? 2000;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = performance.now();
  for (;;) {
    if (await options.isUp()) return true;
    const left = timeoutMs - (performance.now() - started);
    if (left <= 0) break;
    // The last wait ends at the deadline, not a whole poll period after it.
    await new Promise((r) => setTimeout(r, Math.min(pollMs, left)));
  }
  throw new UnreachableError(
    `Cannot start the model server with 'lms server start': it did not answer within ${timeoutMs} ms`,
  );
}
