/**
 * The process runner the `lms` wrapper uses; tests inject a fake or point it at a fake `lms`.
 *
 * @module
 */

/** The outcome of a finished process. */
export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
  /** True when the runner killed the process at its timeout. */
  timedOut: boolean;
}

/** Runs a command to completion with a timeout. */
export interface ProcessRunner {
  run(
    cmd: string,
    args: string[],
    options: { timeoutMs: number; env?: Record<string, string> },
  ): Promise<ProcessResult>;
}

/** Runs commands with `Deno.Command`, killing them (SIGKILL) at the timeout. */
export const denoRunner: ProcessRunner = {
  async run(cmd, args, options) {
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, options.timeoutMs);
    try {
      const out = await new Deno.Command(cmd, {
        args,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        signal: ctl.signal,
        ...(options.env ? { env: options.env } : {}),
      }).output();
      const dec = new TextDecoder();
      return {
        code: out.code,
        stdout: dec.decode(out.stdout),
        stderr: dec.decode(out.stderr),
        timedOut,
      };
    } finally {
      clearTimeout(timer);
    }
  },
};
