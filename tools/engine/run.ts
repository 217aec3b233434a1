/**
 * Runs external commands for the engine setup (npm, tar, git, cmake, ninja, apt-get, the model
 * converter) through one injectable function, streaming their output to a log file.
 *
 * @module
 */

import { SetupError } from "../../lib/error.ts";
import { drainOutput } from "../../lib/engine/mod.ts";

/** Options of one command. */
export interface RunOptions {
  /** Working directory. */
  cwd?: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Called with every output line (stdout and stderr). */
  onLine?: (line: string) => void;
  /** Appends every output line to this file. */
  logFile?: string;
}

/** Exit code and the last output lines. */
export interface RunResult {
  /** Exit code. */
  code: number;
  /** The last output lines. */
  tail: string[];
}

/** Runs a command to its end. */
export type CommandRunner = (
  command: string,
  args: string[],
  options?: RunOptions,
) => Promise<RunResult>;

/** The real runner (Deno.Command, stdin closed, output piped). */
export const denoRunner: CommandRunner = async (command, args, options = {}) => {
  const log = options.logFile
    ? await Deno.open(options.logFile, { create: true, append: true })
    : undefined;
  const encoder = new TextEncoder();
  try {
    log?.writeSync(encoder.encode(`$ ${command} ${args.join(" ")}\n`));
    const child = new Deno.Command(command, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.env ? { env: options.env } : {}),
    }).spawn();
    const tail = drainOutput([child.stdout, child.stderr], {
      keep: 40,
      onLine: (line) => {
        log?.writeSync(encoder.encode(line + "\n"));
        options.onLine?.(line);
      },
    });
    const status = await child.status;
    await tail.done;
    return { code: status.code, tail: tail.lines() };
  } finally {
    log?.close();
  }
};

/**
 * Runs a command and throws when it fails.
 *
 * @param what what the command does, for the error ("Cannot <what>: …")
 * @throws {SetupError} `command_failed` with the exit code and the last output lines
 */
export async function runOrThrow(
  runner: CommandRunner,
  what: string,
  command: string,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  let result: RunResult;
  try {
    result = await runner(command, args, options);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new SetupError(`Cannot ${what}: '${command}' is not installed`, {
        code: "command_missing",
        cause: err,
      });
    }
    throw err;
  }
  if (result.code !== 0) {
    const where = options.logFile ? ` (full log: ${options.logFile})` : "";
    throw new SetupError(
      `Cannot ${what}: '${command}' exited with ${result.code}${where}\n${
        result.tail.slice(-12).join("\n")
      }`,
      { code: "command_failed" },
    );
  }
  return result;
}
