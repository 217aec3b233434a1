/**
 * Entry of `deno task host`: a launcher that runs the plugin host alone (no benchmark routes) in
 * a child process whose Deno permissions are limited to its folders, `/proc/uptime`, its listen
 * address and what the plugins' settings need (see `lib/host/launch.ts`), and supervises it: it
 * restarts the host under a new scope when saved settings need one, and runs probes for it.
 *
 * Usage: `deno task host -- [--port N] [--host ADDR] [--printer-speed X]`, or an account command
 * (`user add NAME --permissions LIST`, `apikey create --user NAME`, `apikey revoke KEY`).
 *
 * @module
 */
// Must stay the first import: lib/host/mod.ts loads env_scope.ts first, which scopes
// process.env before any npm package loads.
import {
  createHost,
  envOf,
  HOST_COMMANDS_USAGE,
  HOST_ENV_VARS,
  hostStart,
  isHostCommand,
  LIBRARY_ENV_VARS,
  pluginEnvVars,
  resolveHostPaths,
  runHostCommand,
  runProbeProcess,
  RUNTIME_ENV_VARS,
  SCOPED_ENV_VAR,
  scopedPermissionFlags,
  serveHost,
  type ShutdownInfo,
  superviseHost,
  SupervisorLink,
} from "./lib/host/mod.ts";
import { parseOptions } from "./lib/args.ts";
import { fileURLToPath } from "node:url";
import { exitCodeOf, messageOf, UsageError } from "./lib/error.ts";
import { listenHostNames, parseHostList } from "./lib/http/mod.ts";
import { assertIslandsBuilt } from "./lib/web/server.ts";
import { createHostApp } from "./app/mod.ts";
import { manifest } from "./manifest.gen.ts";
import { print, printError } from "./lib/log.ts";
import { plugins } from "./plugins/registry.ts";

const SCRIPT = fileURLToPath(import.meta.url);
/** The static folder: the stylesheet and the island bundles `deno task build` wrote. */
const STATIC_DIR = fileURLToPath(new URL("./static", import.meta.url));

const USAGE = `Usage: deno task host -- [options]
  --port N            listen port (0 = any free port)   [default: 5000]
  --host ADDR         listen address                    [default: 127.0.0.1]
  --printer-speed X   virtual printer clock speed-up    [default: 1]
  --allowed-hosts L   host names to answer besides the listen address's, comma-separated
                      (DNS rebinding guard)             [default: $LOCALBENCH_ALLOWED_HOSTS]
  --no-ui             serve the APIs only (no pages)
  -h, --help          show this help
${HOST_COMMANDS_USAGE}`;

interface HostArgs {
  port: number;
  hostname: string;
  printerSpeed: number;
  /** Host names answered besides the listen address's. */
  allowedHosts: string[];
  ui: boolean;
  scoped: boolean;
  /** Internal: a launcher supervises this host through its standard input and output. */
  supervised: boolean;
  /** Internal: this start follows a planned restart. */
  resume: boolean;
  /** Internal: the files the launcher considered (named path → granted real path or null). */
  scopeFiles: Record<string, string | null>;
  help: boolean;
}

/** Parses the server flags. */
export function parseHostArgs(argv: string[]): HostArgs {
  const { values } = parseOptions({
    args: argv,
    options: {
      port: { type: "string", default: "5000" },
      host: { type: "string", default: "127.0.0.1" },
      "printer-speed": { type: "string", default: "1" },
      "allowed-hosts": { type: "string", multiple: true, default: [] },
      "no-ui": { type: "boolean", default: false },
      scoped: { type: "boolean", default: false },
      supervised: { type: "boolean", default: false },
      resume: { type: "boolean", default: false },
      "scope-files": { type: "string", default: "{}" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`Invalid --port '${values.port}': must be 0..65535`);
  }
  const printerSpeed = Number(values["printer-speed"]);
  if (!(printerSpeed > 0 && printerSpeed <= 1000)) {
    throw new UsageError(
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
    supervised: values.supervised,
    resume: values.resume,
    scopeFiles: JSON.parse(values["scope-files"]),
    help: values.help,
  };
}

async function readStdin(): Promise<string> {
  return await new Response(Deno.stdin.readable).text();
}

/** Parent of an account command: runs it once under the host's scope (no network). */
async function runScopedCommand(argv: string[]): Promise<number> {
  const envNames = [...HOST_ENV_VARS, ...pluginEnvVars(plugins)];
  const flags = scopedPermissionFlags({
    paths: resolveHostPaths(envOf(envNames)),
    listen: { hostname: "127.0.0.1", port: 0 },
    envVars: pluginEnvVars(plugins),
  });
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, SCRIPT, "--scoped", ...argv],
    clearEnv: true,
    env: {
      ...envOf(RUNTIME_ENV_VARS),
      ...envOf(envNames),
      [SCOPED_ENV_VAR]: [...envNames, ...LIBRARY_ENV_VARS].join(","),
    },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  return status.code;
}

/** Parent: runs and supervises the scoped host (the pages need the built islands). */
async function launch(args: HostArgs): Promise<number> {
  if (args.ui) await assertIslandsBuilt(manifest, STATIC_DIR);
  // The host may not ask the machine for its names (no --allow-sys): they are computed here.
  const names = listenHostNames(args.hostname, {
    extra: [...args.allowedHosts, ...parseHostList(Deno.env.get("LOCALBENCH_ALLOWED_HOSTS"))],
  });
  const serveArgs = {
    hostname: args.hostname,
    port: args.port,
    printerSpeed: args.printerSpeed,
    ui: args.ui,
    allowedHosts: [...names],
  };
  return await superviseHost({
    prepare: (port, resumed) =>
      hostStart(
        {
          script: SCRIPT,
          plugins,
          serve: serveArgs,
          readOnly: args.ui ? [STATIC_DIR] : [],
        },
        port,
        resumed,
      ),
    probe: (request) => runProbeProcess(SCRIPT, request),
    print,
    banner: (base) => args.ui ? [`Plugin pages: ${base}/plugins/`] : [],
  });
}

/** Probe process: runs one plugin probe and prints its JSON result. */
async function probe(argv: string[]): Promise<number> {
  const [pluginId, name, json] = argv;
  const fn = plugins.find((p) => p.id === pluginId)?.probes?.[name ?? ""];
  if (!fn) throw new UsageError(`Unknown probe '${pluginId} ${name}'`);
  print(JSON.stringify(await fn(JSON.parse(json ?? "{}"))));
  return 0;
}

/**
 * Child: serves the host until SIGINT/SIGTERM (a real stop: plugins apply their failsafe), until
 * the launcher is gone (the same), or until saved settings need a wider scope (a planned
 * restart: outputs stay as they are, the launcher starts the host again).
 */
async function serve(args: HostArgs): Promise<number> {
  const env = envOf([...HOST_ENV_VARS, ...pluginEnvVars(plugins)]);
  const { promise: stopped, resolve: stop } = Promise.withResolvers<ShutdownInfo>();
  const link = args.supervised
    ? new SupervisorLink({ onClose: () => stop({ planned: false }) })
    : null;
  const host = createHost({
    plugins,
    env,
    printerSpeed: args.printerSpeed,
    logToStderr: true,
    resumed: args.resume,
    scope: link
      ? {
        files: args.scopeFiles,
        restart: (reason) => {
          link.restart(reason);
          stop({ planned: true });
        },
        probe: (request) => link.probe(request),
      }
      : { files: args.scopeFiles },
  });
  const web = createHostApp(
    host,
    listenHostNames(args.hostname, { extra: args.allowedHosts }),
    args.ui,
  );
  const outside = Deno.permissions.querySync({ name: "read", path: "/etc" }).state;
  host.logger.info(
    `Permission scope: read outside the host folders is ${
      outside === "granted" ? "allowed" : "refused"
    }`,
  );
  const served = await serveHost(host, {
    hostname: args.hostname,
    port: args.port,
    fetch: (req, info) => web.fetch(req, info),
  });
  if (link) link.listening(served.hostname, served.port, served.adminKey);
  else {
    if (served.adminKey) {
      print("Admin API key (shown once, store it now):");
      print(served.adminKey);
    }
    print(`Plugin host listening on http://${served.hostname}:${served.port}/`);
  }
  const onSignal = () => stop({ planned: false });
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const info = await stopped;
  await served.shutdown(info);
  Deno.removeSignalListener("SIGINT", onSignal);
  Deno.removeSignalListener("SIGTERM", onSignal);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "--probe") return await probe(argv.slice(1));
  if (isHostCommand(argv.filter((a) => a !== "--scoped"))) {
    const rest = argv.filter((a) => a !== "--scoped");
    if (!argv.includes("--scoped")) return await runScopedCommand(rest);
    const paths = resolveHostPaths(envOf(HOST_ENV_VARS));
    await runHostCommand(rest, { configFile: paths.configFile, readStdin, print });
    return 0;
  }
  const args = parseHostArgs(argv);
  if (args.help) {
    print(USAGE);
    return 0;
  }
  return args.scoped ? await serve(args) : await launch(args);
}

if (import.meta.main) {
  const argv = Deno.args.filter((a, i) => !(i === 0 && a === "--"));
  try {
    Deno.exitCode = await main(argv);
  } catch (err) {
    printError(`Error: ${messageOf(err)}`);
    Deno.exitCode = exitCodeOf(err);
  }
  // A supervised host has shut down gracefully: the read of its channel would keep it alive.
  if (argv.includes("--supervised")) Deno.exit();
}
