/**
 * `webapp.ts` as its own process, as `deno task webapp` starts it: spawned with the given
 * arguments and environment, its address read from the "Dashboard listening on URL" line.
 *
 * @module
 */
import assert from "node:assert/strict";
import { REPO_ROOT } from "./_helpers.ts";

/** A running `webapp.ts`; disposing it stops it with SIGTERM and waits for its end. */
export interface WebappProcess extends AsyncDisposable {
  /** The address it listens on, ending in `/`. */
  url: string;
  /** What it printed on standard output up to the listening line. */
  output: string;
}

const LISTENING = /Dashboard listening on (\S+)\n/;

/**
 * Starts `deno run <permissions> webapp.ts <args>` with `env` and waits (60 s at most) for its
 * listening line; an assertion error with its output when none comes.
 */
export async function startWebappProcess(
  permissions: string[],
  args: string[],
  env: Record<string, string>,
): Promise<WebappProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, "webapp.ts", ...args],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already ended */ }
    await reader.cancel();
    await child.status;
    await stderr;
  };
  let output = "";
  const deadline = Date.now() + 60_000;
  try {
    while (!LISTENING.test(output) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      output += value;
    }
    const url = LISTENING.exec(output)?.[1];
    assert.ok(url, `no listening line: ${output}`);
    return { url, output, [Symbol.asyncDispose]: stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
