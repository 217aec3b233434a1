/**
 * Entry of `deno task host`: a launcher that runs the plugin host alone (no benchmark routes) in
 * a child process whose Deno permissions are limited to its folders, its listen address and what
 * the plugins declare and their settings need (see `lib/host/launch.ts`), and supervises it: it
 * restarts the host under a new scope when saved settings need one and after a crash (with
 * backoff), runs probes for it, and the plugins' failsafes while it is down.
 * The same script is the scoped host (`--scoped`), the printer process that outlives the host's
 * restarts (`--printer`), a probe (`--probe`), a failsafe process (`--failsafe`) and an account
 * command run under the host's scope; their logic is `lib/host/`, the web app
 * `app/host_app.ts`.
 *
 * Usage: `deno task host -- [--port N] [--host ADDR] [--printer-speed X]`, or an account command
 * (`user add NAME --permissions LIST`, `apikey create --user NAME`, `apikey revoke KEY`).
 *
 * @module
 */
// Must stay the first import: lib/host/mod.ts loads env_scope.ts first, which scopes
// process.env before any npm package loads.
import {
  HOST_USAGE,
  isHostCommand,
  launchHost,
  parseHostArgs,
  runFailsafe,
  runHostCommand,
  runHostPrinter,
  runProbe,
  runScopedCommand,
  runScopedHost,
} from "./lib/host/mod.ts";
import { fileURLToPath } from "node:url";
import { assertHostPagesBuilt, createHostApp, REPO_STATIC_DIR } from "./app/mod.ts";
import { withoutLeadingDashDash } from "./lib/args.ts";
import { exitCodeOf, messageOf } from "./lib/error.ts";
import { print, printError } from "./lib/log.ts";
import { plugins } from "./plugins/registry.ts";

const SCRIPT = fileURLToPath(import.meta.url);

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "--probe") {
    print(JSON.stringify(await runProbe(plugins, argv.slice(1))));
    return 0;
  }
  if (argv[0] === "--failsafe") {
    print(JSON.stringify(await runFailsafe(plugins, argv.slice(1))));
    return 0;
  }
  const command = argv.filter((a) => a !== "--scoped");
  if (isHostCommand(command)) {
    // Run once more under the host's scope, which then runs the command itself.
    if (command.length === argv.length) return await runScopedCommand(SCRIPT, plugins, command);
    await runHostCommand(command);
    return 0;
  }
  const args = parseHostArgs(argv);
  if (args.help) {
    print(HOST_USAGE);
    return 0;
  }
  if (args.printer) return await runHostPrinter(args);
  if (args.scoped) {
    return await runScopedHost(args, plugins, (host, names) => createHostApp(host, names, args.ui));
  }
  if (args.ui) await assertHostPagesBuilt();
  return await launchHost(args, { script: SCRIPT, plugins, staticDir: REPO_STATIC_DIR });
}

if (import.meta.main) {
  const argv = withoutLeadingDashDash(Deno.args);
  try {
    Deno.exitCode = await main(argv);
  } catch (err) {
    printError(`Error: ${messageOf(err)}`);
    Deno.exitCode = exitCodeOf(err);
  }
  // A supervised host, or the printer process, has shut down gracefully: the read of its channel
  // to the launcher would keep it alive.
  if (argv.includes("--supervised") || argv.includes("--printer")) Deno.exit();
}
