/**
 * Installs the fake `lms` into a temporary home (`<home>/.lmstudio/bin/lms`, a shell script that
 * runs `fake_lms.ts` with this Deno) so `LmsCli` and the engine can run it as the real command.
 *
 * @module
 */

import { join } from "node:path";
import { defaultFakeLmsState, type FakeLmsState } from "./fake_lms.ts";

/** An installed fake. */
export interface FakeLms {
  /** The temporary home directory. */
  home: string;
  /** Path of the `lms` script. */
  bin: string;
  /** Path of the state file. */
  statePath: string;
  /** Reads the current state. */
  read(): FakeLmsState;
  /** Removes the temporary home. */
  remove(): Promise<void>;
}

/**
 * Creates a temp home with the fake `lms`. The script exports `FAKE_LMS_STATE`; extra environment
 * (e.g. `FAKE_LMS_SLEEP_MS`) is baked into the script.
 */
export async function installFakeLms(
  options: { state?: Partial<FakeLmsState>; env?: Record<string, string> } = {},
): Promise<FakeLms> {
  const home = await Deno.makeTempDir({ prefix: "fake_lms_home_" });
  const binDir = join(home, ".lmstudio", "bin");
  await Deno.mkdir(binDir, { recursive: true });
  const statePath = join(home, "fake_lms_state.json");
  await Deno.writeTextFile(
    statePath,
    JSON.stringify({ ...defaultFakeLmsState(), ...options.state }),
  );
  const script = new URL("./fake_lms.ts", import.meta.url).pathname;
  const env = Object.entries({ FAKE_LMS_STATE: statePath, ...options.env })
    .map(([k, v]) => `export ${k}='${v.replaceAll("'", "")}'\n`).join("");
  const bin = join(binDir, "lms");
  await Deno.writeTextFile(
    bin,
    `#!/bin/sh\n${env}exec '${Deno.execPath()}' run -A --quiet '${script}' "$@"\n`,
  );
  await Deno.chmod(bin, 0o755);
  return {
    home,
    bin,
    statePath,
    read: () => JSON.parse(Deno.readTextFileSync(statePath)) as FakeLmsState,
    remove: () => Deno.remove(home, { recursive: true }),
  };
}
