/**
 * Configures and builds llama.cpp with CMake and Ninja: only `llama-server`, `llama-bench` and the
 * llama2.c model converter, statically linked (no shared libraries to carry around), CPU only, and with every
 * option that would download something at configure or build time turned off.
 *
 * @module
 */

import { type CommandRunner, runOrThrow } from "./run.ts";

/** CMake cache entries used for the build. */
export const CMAKE_FLAGS: readonly string[] = [
  "-DCMAKE_BUILD_TYPE=Release",
  // The server's web UI is fetched from the network unless both are off; we pass --no-webui anyway.
  "-DLLAMA_USE_PREBUILT_UI=OFF",
  "-DLLAMA_BUILD_UI=OFF",
  // No TLS: the server only listens on loopback and never downloads models here.
  "-DLLAMA_OPENSSL=OFF",
  // Portable x86-64 code (AVX2 variant), so a cached build also runs on another CI machine.
  "-DGGML_NATIVE=OFF",
  // One self-contained binary each instead of libllama/libggml shared objects.
  "-DBUILD_SHARED_LIBS=OFF",
  "-DLLAMA_BUILD_TESTS=OFF",
  "-DLLAMA_BUILD_EXAMPLES=ON",
  "-DLLAMA_BUILD_TOOLS=ON",
  "-DLLAMA_BUILD_SERVER=ON",
  "-DLLAMA_BUILD_APP=OFF",
  "-DGGML_CCACHE=OFF",
];

/**
 * Ninja targets: the server, the converter that turns llama2.c checkpoints into GGUF, and
 * llama-bench (whose real output the `--import` end-to-end test reads).
 */
export const BUILD_TARGETS: readonly string[] = [
  "llama-server",
  "llama-convert-llama2c-to-ggml",
  "llama-bench",
];

/** Options of {@linkcode buildEngine}. */
export interface BuildOptions {
  /** The llama.cpp checkout. */
  srcDir: string;
  /** The CMake build folder. */
  buildDir: string;
  /** Parallel compile jobs. @default navigator.hardwareConcurrency */
  jobs?: number;
  /** Progress output. */
  say: (line: string) => void;
  /** Full log. */
  logFile?: string;
  /** The Ninja targets to build. @default BUILD_TARGETS */
  targets?: readonly string[];
}

/**
 * Runs `cmake -G Ninja` and `ninja <targets>`, printing a line at every tenth of the build.
 *
 * @returns the folder holding the built binaries
 * @throws {SetupError} when configure or build fails (with the last lines of output)
 */
export async function buildEngine(runner: CommandRunner, options: BuildOptions): Promise<string> {
  const { srcDir, buildDir, say } = options;
  const log = options.logFile ? { logFile: options.logFile } : {};
  const jobs = options.jobs ?? navigator.hardwareConcurrency ?? 2;
  const targets = options.targets ?? BUILD_TARGETS;
  say(`build: cmake configure (${CMAKE_FLAGS.length} flags)`);
  await runOrThrow(runner, "configure llama.cpp", "cmake", [
    "-S",
    srcDir,
    "-B",
    buildDir,
    "-G",
    "Ninja",
    ...CMAKE_FLAGS,
  ], log);
  say(`build: ninja -j${jobs} ${targets.join(" ")} (up to 40 minutes on 2 cores)`);
  const progress = progressReporter(say);
  await runOrThrow(runner, "build llama.cpp", "ninja", [
    "-C",
    buildDir,
    `-j${jobs}`,
    ...targets,
  ], {
    ...log,
    onLine: progress,
  });
  return `${buildDir}/bin`;
}

/**
 * Turns Ninja's `[done/total]` lines into one progress line per tenth.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { progressReporter } from "./build.ts";
 * const said: string[] = [];
 * const on = progressReporter((s) => said.push(s));
 * for (const line of ["[1/10] a", "[1/10] b", "ninja: x", "[5/10] c", "[10/10] d"]) on(line);
 * assert.deepEqual(said, ["build: 10% (1/10)", "build: 50% (5/10)", "build: 100% (10/10)"]);
 * ```
 */
export function progressReporter(say: (line: string) => void): (line: string) => void {
  let lastTenth = 0;
  return (line) => {
    const m = /^\[(\d+)\/(\d+)\]/.exec(line);
    if (!m) return;
    const done = Number(m[1]);
    const total = Number(m[2]);
    const tenth = Math.floor((done * 10) / total);
    if (tenth > lastTenth) {
      lastTenth = tenth;
      say(`build: ${tenth * 10}% (${done}/${total})`);
    }
  };
}

/**
 * Copies the built binaries into `binDir` (created), each through a temporary file renamed over
 * the old one, so a test running the installed binary meanwhile never sees a half-written file.
 */
export async function installBinaries(
  builtBinDir: string,
  binDir: string,
  targets: readonly string[] = BUILD_TARGETS,
): Promise<string[]> {
  await Deno.mkdir(binDir, { recursive: true });
  const installed: string[] = [];
  for (const name of targets) {
    const target = `${binDir}/${name}`;
    const temp = `${target}.${Deno.pid}.tmp`;
    await Deno.copyFile(`${builtBinDir}/${name}`, temp);
    await Deno.chmod(temp, 0o755);
    await Deno.rename(temp, target);
    installed.push(target);
  }
  return installed;
}
