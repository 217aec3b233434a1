/**
 * Entry of `deno task host`: runs the plugin host alone (no benchmark routes) in a child
 * process whose Deno permissions are limited to its folders, `/proc/uptime`, its listen address
 * and the plugins' declared network destinations (see `lib/host/launch.ts`).
 *
 * Usage: `deno task host -- [--port N] [--host ADDR] [--printer-speed X]`, or an account command
 * (`user add NAME --permissions LIST`, `apikey create --user NAME`, `apikey revoke KEY`).
 *
 * @module
 */
// Must stay the first import: it scopes process.env before any npm package loads.
import { SCOPED_ENV_VAR } from "./lib/host/env_scope.ts";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { AppError, exitCodeOf, messageOf } from "./lib/error.ts";
import {
  createHost,
  HOST_COMMANDS_USAGE,
  HOST_ENV_VARS,
  isHostCommand,
  LIBRARY_ENV_VARS,
  pluginEnvVars,
  pluginScope,
  resolveHostPaths,
  resolveReadFiles,
  runHostCommand,
  scopedPermissionFlags,
  serveHost,
} from "./lib/host/mod.ts";
import { buildIslands, listenHostNames, parseHostList } from "./lib/http/fw.ts";
import { print, printError } from "./lib/log.ts";
import { plugins } from "./plugins/registry.ts";
import { islandEntries } from "./routes/_islands.ts";
import { hostUiRoutes } from "./routes/plugins/mod.ts";
import { STATIC_ROOT } from "./routes/plugins/islands.ts";

const USAGE = `Usage: deno task host -- [options]
  --port N            listen port (0 = any free port)   [default: 5000]
  --host ADDR         listen address                    [default: 127.0.0.1]
  --printer-speed X   virtual printer clock speed-up    [default: 1]
  --allowed-hosts L   host names to answer besides the listen address's, comma-separated
                      (DNS rebinding guard)             [default: $LOCALBENCH_ALLOWED_HOSTS]
  --no-ui             serve the APIs only (no pages, no island build)
  -h, --help          show this help
${HOST_COMMANDS_USAGE}`;

/** Variables passed through to the scoped child that Deno itself (not the host) reads. */
const RUNTIME_ENV = ["PATH", "DENO_DIR", "XDG_CACHE_HOME", "NO_COLOR", "TMPDIR", "LANG"];

interface HostArgs {
  port: number;
  hostname: string;
  printerSpeed: number;
  /** Host names answered besides the listen address's. */
  allowedHosts: string[];
  ui: boolean;
  scoped: boolean;
  help: boolean;
}

/** Parses the server flags. */
export function parseHostArgs(argv: string[]): HostArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: "5000" },
      host: { type: "string", default: "127.0.0.1" },
      "printer-speed": { type: "string", default: "1" },
      "allowed-hosts": { type: "string", multiple: true, default: [] },
      "no-ui": { type: "boolean", default: false },
      scoped: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new AppError(400, `Invalid --port '${values.port}': must be 0..65535`);
  }
  const printerSpeed = Number(values["printer-speed"]);
  if (!(printerSpeed > 0 && printerSpeed <= 1000)) {
    throw new AppError(
      400,
      `Invalid --printer-speed '${values["printer-speed"]}': must be in (0, 1000]`,
    );
  }
  return {
    port,
    hostname: values.host,
    printerSpeed,
    allowedHosts: values["allowed-hosts"].flatMap(parseHostList),
    ui: !values["no-ui"],
    scoped: values.scoped,
    help: values.help,
  };
}

function envOf(names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = Deno.env.get(name);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

async function readStdin(): Promise<string> {
  return await new Response(Deno.stdin.readable).text();
}

/** Parent: computes the scope and runs this file again under it. */
async function launchScoped(argv: string[], args: HostArgs): Promise<number> {
  const envNames = [...HOST_ENV_VARS, ...pluginEnvVars(plugins)];
  const paths = resolveHostPaths(envOf(envNames));
  const scope = isHostCommand(argv)
    ? { netHosts: [], readFiles: [] }
    : await pluginScope(paths.configFile, plugins);
  const files = await resolveReadFiles(scope.readFiles);
  if (args.ui && !isHostCommand(argv)) {
    // Here, not in the child: esbuild cannot run under the child's permissions.
    const root = fileURLToPath(new URL("./", import.meta.url));
    await buildIslands({ islands: islandEntries(root), outDir: `${STATIC_ROOT}/_islands` });
  }
  const flags = scopedPermissionFlags({
    paths,
    listen: { hostname: args.hostname, port: args.port },
    netHosts: scope.netHosts,
    readFiles: files.granted,
    envVars: pluginEnvVars(plugins),
    readOnly: args.ui ? [STATIC_ROOT] : [],
  });
  // The child may not ask the machine for its names (no --allow-sys): they are computed here.
  const names = listenHostNames(args.hostname, {
    extra: [...args.allowedHosts, ...parseHostList(Deno.env.get("LOCALBENCH_ALLOWED_HOSTS"))],
  });
  const hostsArg = isHostCommand(argv) ? [] : ["--allowed-hosts", [...names].join(",")];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, new URL(import.meta.url).pathname, "--scoped", ...argv, ...hostsArg],
    clearEnv: true,
    env: {
      ...envOf(RUNTIME_ENV),
      ...envOf(envNames),
      [SCOPED_ENV_VAR]: [...envNames, ...LIBRARY_ENV_VARS].join(","),
    },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const forward = (signal: Deno.Signal) => () => child.kill(signal);
  const onInt = forward("SIGINT");
  const onTerm = forward("SIGTERM");
  Deno.addSignalListener("SIGINT", onInt);
  Deno.addSignalListener("SIGTERM", onTerm);
  const status = await child.status;
  Deno.removeSignalListener("SIGINT", onInt);
  Deno.removeSignalListener("SIGTERM", onTerm);
  return status.code;
}

/** Child: serves the host until SIGINT/SIGTERM. */
async function serve(args: HostArgs): Promise<number> {
  const env = envOf([...HOST_ENV_VARS, ...pluginEnvVars(plugins)]);
  const host = createHost({
    plugins,
    env,
    printerSpeed: args.printerSpeed,
    logToStderr: true,
    allowedHosts: listenHostNames(args.hostname, { extra: args.allowedHosts }),
    beforeAuth: args.ui
      ? (app, s) => app.route("/", hostUiRoutes({ ...s, logDir: s.paths.logDir }))
      : undefined,
  });
  const outside = Deno.permissions.querySync({ name: "read", path: "/etc" }).state;
  host.logger.info(
    `Permission scope: read outside the host folders is ${
      outside === "granted" ? "allowed" : "refused"
    }`,
  );
  const served = await serveHost(host, { hostname: args.hostname, port: args.port });
  if (served.adminKey) {
    print("Admin API key (shown once, store it now):");
    print(served.adminKey);
  }
  print(`Plugin host listening on http://${served.hostname}:${served.port}/`);
  if (args.ui) print(`Log viewer: http://${served.hostname}:${served.port}/plugins/logs`);
  const { promise, resolve } = Promise.withResolvers<void>();
  Deno.addSignalListener("SIGINT", resolve);
  Deno.addSignalListener("SIGTERM", resolve);
  await promise;
  await served.shutdown();
  return 0;
}

async function main(argv: string[]): Promise<number> {
  if (isHostCommand(argv.filter((a) => a !== "--scoped"))) {
    const rest = argv.filter((a) => a !== "--scoped");
    if (!argv.includes("--scoped")) {
      return await launchScoped(rest, parseHostArgs([]));
    }
    const paths = resolveHostPaths(envOf(HOST_ENV_VARS));
    await runHostCommand(rest, { configFile: paths.configFile, readStdin, print });
    return 0;
  }
  const args = parseHostArgs(argv);
  if (args.help) {
    print(USAGE);
    return 0;
  }
  return args.scoped ? await serve(args) : await launchScoped(argv, args);
}

if (import.meta.main) {
  try {
    Deno.exitCode = await main(Deno.args.filter((a, i) => !(i === 0 && a === "--")));
  } catch (err) {
    printError(`Error: ${messageOf(err)}`);
    Deno.exitCode = exitCodeOf(err);
  }
}
