/**
 * A fake `lms` executable for tests and demos. It keeps its state in the JSON file named by the
 * `FAKE_LMS_STATE` environment variable (created from the default catalogue when missing) and
 * appends every invocation's arguments to `calls`. `FAKE_LMS_SLEEP_MS` delays every command (for
 * timeout tests); `FAKE_LMS_FAIL` makes the named subcommand (`ls`, `server start`, ...) exit 1.
 *
 * Run it through a shell script: `#!/bin/sh\nexec deno run -A fake_lms.ts "$@"` (see
 * `fake_lms_install.ts`).
 *
 * @module
 */

import { print, printError } from "../../lib/log.ts";
import { defaultCatalogue, variantKey } from "./_lmstudio_catalogue.ts";
import { sdkModelInfo } from "./_lmstudio_sdk_shapes.ts";

/** The state file of the fake. */
export interface FakeLmsState {
  /** `lms ls --json` entries (camelCase). */
  models: Record<string, unknown>[];
  server: { running: boolean; port: number };
  loaded: string[];
  version: string;
  /** Arguments of every invocation, oldest first. */
  calls: string[][];
}

/** The default state: the doubles' installed catalogue, server stopped on port 1234. */
export function defaultFakeLmsState(): FakeLmsState {
  const models = defaultCatalogue().filter((m) => m.downloaded).map((m) => ({
    ...sdkModelInfo(m),
    publisher: m.publisher,
    ...(m.variants.length > 1
      ? {
        variants: m.variants.map((v) => variantKey(m, v)),
        selectedVariant: variantKey(m, m.variants[0]!),
      }
      : {}),
  }));
  return {
    models,
    server: { running: false, port: 1234 },
    loaded: [],
    version: "0.4.1",
    calls: [],
  };
}

function run(args: string[], state: FakeLmsState): number {
  const [cmd, sub] = args;
  const flag = (name: string) => args.includes(name);
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (cmd === "ls") {
    if (flag("--json")) print(JSON.stringify(state.models));
    else for (const m of state.models) print(String(m.modelKey));
    return 0;
  }
  if (cmd === "server" && sub === "status") {
    if (flag("--json")) {
      print(JSON.stringify(state.server.running ? state.server : { running: false }));
    } else {print(
        state.server.running
          ? `The server is running on port ${state.server.port}.`
          : "The server is not running.",
      );}
    return 0;
  }
  if (cmd === "server" && sub === "start") {
    state.server = { running: true, port: Number(value("--port") ?? state.server.port) };
    print(`Success! Server is now running on port ${state.server.port}`);
    return 0;
  }
  if (cmd === "server" && sub === "stop") {
    state.server.running = false;
    return 0;
  }
  if (cmd === "unload" && flag("--all")) {
    state.loaded = [];
    print("Unloaded all models.");
    return 0;
  }
  if (cmd === "version") {
    print(`lms - LM Studio CLI - v${state.version}\nCLI commit: 1a2b3c4`);
    return 0;
  }
  printError(`Error: unknown command 'lms ${args.join(" ")}'`);
  return 1;
}

if (import.meta.main) {
  const path = Deno.env.get("FAKE_LMS_STATE");
  if (path === undefined) {
    printError("FAKE_LMS_STATE is not set");
    Deno.exit(2);
  }
  let state: FakeLmsState;
  try {
    state = JSON.parse(Deno.readTextFileSync(path)) as FakeLmsState;
  } catch {
    state = defaultFakeLmsState();
  }
  state.calls.push(Deno.args);
  const sleep = Number(Deno.env.get("FAKE_LMS_SLEEP_MS") ?? "0");
  if (sleep > 0) await new Promise((r) => setTimeout(r, sleep));
  const fail = Deno.env.get("FAKE_LMS_FAIL");
  const code = fail !== undefined && Deno.args.join(" ").startsWith(fail)
    ? (printError(`Error: simulated failure of 'lms ${fail}'`), 1)
    : run(Deno.args, state);
  Deno.writeTextFileSync(path, JSON.stringify(state, null, 2));
  Deno.exit(code);
}
