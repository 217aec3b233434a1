/**
 * Gets llama.cpp's source the only allowed way: from the npm package node-llama-cpp (pinned), whose
 * `llama/gitRelease.bundle` is a git bundle of llama.cpp. The tarball is fetched with `npm pack`
 * into the engine's scratch folder; nothing is added to the project's dependencies.
 *
 * @module
 */

import { exists } from "../../lib/fs.ts";
import { SetupError } from "../../lib/error.ts";
import {
  LLAMA_CPP_COMMIT,
  NODE_LLAMA_CPP_PACKAGE,
  NODE_LLAMA_CPP_VERSION,
} from "../../lib/engine/mod.ts";
import { type CommandRunner, runOrThrow } from "./run.ts";

/** Where the source ended up. */
export interface FetchedSource {
  /** The llama.cpp checkout. */
  srcDir: string;
  /** Its commit. */
  commit: string;
}

/** Options of {@linkcode fetchSource}. */
export interface FetchSourceOptions {
  /** Scratch folder (created). */
  workDir: string;
  /** Progress output. */
  say: (line: string) => void;
  /** Log file. */
  logFile?: string;
}

/** The tarball name `npm pack` writes. */
export const PACKAGE_TARBALL = `${NODE_LLAMA_CPP_PACKAGE}-${NODE_LLAMA_CPP_VERSION}.tgz`;

/** The bundle's path inside the tarball. */
export const BUNDLE_IN_TARBALL = "package/llama/gitRelease.bundle";

/**
 * Downloads the package (unless its tarball is already there), unpacks the bundle and clones it.
 * An existing checkout at the expected commit is reused.
 *
 * @throws {SetupError} when a step fails or the bundle holds another commit than
 * {@linkcode LLAMA_CPP_COMMIT}
 */
export async function fetchSource(
  runner: CommandRunner,
  options: FetchSourceOptions,
): Promise<FetchedSource> {
  const { workDir, say } = options;
  const log = options.logFile ? { logFile: options.logFile } : {};
  const srcDir = `${workDir}/llama.cpp`;
  await Deno.mkdir(workDir, { recursive: true });
  const existing = await headCommit(runner, srcDir);
  if (existing === LLAMA_CPP_COMMIT) {
    say(`source: reusing ${srcDir} (${existing.slice(0, 7)})`);
    return { srcDir, commit: existing };
  }
  await Deno.remove(srcDir, { recursive: true }).catch(() => undefined);
  const tarball = `${workDir}/${PACKAGE_TARBALL}`;
  if (!(await exists(tarball))) {
    say(`source: npm pack ${NODE_LLAMA_CPP_PACKAGE}@${NODE_LLAMA_CPP_VERSION} (about 35 MB)`);
    await runOrThrow(runner, "download node-llama-cpp", "npm", [
      "pack",
      `${NODE_LLAMA_CPP_PACKAGE}@${NODE_LLAMA_CPP_VERSION}`,
      "--silent",
      "--pack-destination",
      workDir,
    ], { cwd: workDir, ...log });
  }
  await runOrThrow(runner, "unpack node-llama-cpp", "tar", [
    "-xzf",
    tarball,
    "-C",
    workDir,
    BUNDLE_IN_TARBALL,
  ], {
    ...log,
  });
  say("source: cloning llama.cpp from the package's git bundle");
  await runOrThrow(runner, "clone the llama.cpp bundle", "git", [
    "-c",
    "advice.detachedHead=false",
    "clone",
    "-q",
    `${workDir}/${BUNDLE_IN_TARBALL}`,
    srcDir,
  ], { ...log });
  const commit = await headCommit(runner, srcDir);
  if (commit !== LLAMA_CPP_COMMIT) {
    throw new SetupError(
      `Cannot use the llama.cpp bundle: commit '${commit}' is not the pinned '${LLAMA_CPP_COMMIT}'`,
      { code: "source_mismatch" },
    );
  }
  say(`source: llama.cpp ${commit.slice(0, 7)} in ${srcDir}`);
  return { srcDir, commit };
}

async function headCommit(runner: CommandRunner, dir: string): Promise<string | null> {
  if (!(await exists(`${dir}/.git`))) return null;
  const result = await runner("git", ["-C", dir, "rev-parse", "HEAD"]);
  return result.code === 0 ? (result.tail.at(-1)?.trim() ?? null) : null;
}
