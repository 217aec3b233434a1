/**
 * Makes sure the Debian build tools are present: cmake, g++, ninja and git (plus npm and tar, which
 * come with Node and the base system). As root, missing ones are installed with apt-get.
 *
 * @module
 */

import { SetupError } from "../../lib/error.ts";
import { findOnPath } from "../../lib/engine/mod.ts";
import { type CommandRunner, runOrThrow } from "./run.ts";

/** A command the build needs and the Debian package that provides it. */
export interface BuildTool {
  /** Command looked up on PATH. */
  command: string;
  /** Debian package; `null` when apt cannot provide it here. */
  debianPackage: string | null;
}

/** Everything the setup runs. */
export const BUILD_TOOLS: readonly BuildTool[] = [
  { command: "cmake", debianPackage: "cmake" },
  { command: "g++", debianPackage: "g++" },
  { command: "ninja", debianPackage: "ninja-build" },
  { command: "git", debianPackage: "git" },
  { command: "tar", debianPackage: "tar" },
  { command: "npm", debianPackage: null },
];

/** Options of {@linkcode ensureBuildTools}. */
export interface EnsureToolsOptions {
  /** Finds a command. @default findOnPath */
  find?: (command: string) => string | null;
  /** Whether apt-get may be used. @default uid is 0 */
  isRoot?: boolean;
  /** Progress output. */
  say: (line: string) => void;
  /** Log file for apt-get. */
  logFile?: string;
}

/** The tools not found on PATH. */
export function missingTools(find: (command: string) => string | null = findOnPath): BuildTool[] {
  return BUILD_TOOLS.filter((tool) => find(tool.command) === null);
}

/**
 * Installs missing tools with apt-get when root; otherwise explains what to install.
 *
 * @throws {SetupError} `build_tools_missing` when tools are missing and cannot be installed
 */
export async function ensureBuildTools(
  runner: CommandRunner,
  options: EnsureToolsOptions,
): Promise<void> {
  const find = options.find ?? ((c: string) => findOnPath(c));
  const missing = missingTools(find);
  if (missing.length === 0) {
    options.say("build tools: cmake, g++, ninja, git, npm found");
    return;
  }
  const names = missing.map((t) => t.command).join(", ");
  const packages = missing.flatMap((t) => (t.debianPackage ? [t.debianPackage] : []));
  const noApt = missing.filter((t) => t.debianPackage === null).map((t) => t.command);
  if (noApt.length > 0) {
    throw new SetupError(`Cannot build the engine: ${noApt.join(", ")} missing (install Node.js)`, {
      code: "build_tools_missing",
    });
  }
  const isRoot = options.isRoot ?? Deno.uid() === 0;
  if (!isRoot || find("apt-get") === null) {
    const why = isRoot ? "apt-get is not available" : "not running as root";
    throw new SetupError(
      `Cannot build the engine: ${names} missing and ${why}; install them, e.g. ` +
        `\`sudo apt-get install -y ${packages.join(" ")}\`, then run this again`,
      { code: "build_tools_missing" },
    );
  }
  options.say(`build tools: installing ${packages.join(" ")} with apt-get (missing: ${names})`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const log = options.logFile ? { logFile: options.logFile } : {};
  await runOrThrow(runner, "update apt", "apt-get", ["update", "-qq"], { env, ...log });
  await runOrThrow(runner, "install build tools", "apt-get", [
    "install",
    "-y",
    "-qq",
    "--no-install-recommends",
    ...packages,
  ], { env, ...log });
  const still = missingTools(find);
  if (still.length > 0) {
    throw new SetupError(`Cannot build the engine: still missing ${still.map((t) => t.command)}`, {
      code: "build_tools_missing",
    });
  }
}
