/**
 * The plugin host: the plugin contract, the host factory and its API routes, authentication,
 * settings store, push socket, virtual printer, account commands, the permission scope and the
 * processes of `deno task host` (launcher and its supervision, scoped host, probe, failsafe,
 * scoped account command).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { errorHandler } from "../http/mod.ts";
 * import { createHost } from "./mod.ts";
 * const dataDir = await Deno.makeTempDir();
 * const host = createHost({ plugins: [], dataDir });
 * await host.start();
 * const app = new Hono().route("/", host.api).onError(errorHandler());
 * const res = await app.request("/api/settings");
 * assert.equal(res.status, 401);
 * await host.stop();
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 *
 * @module
 */
// First: env_scope.ts scopes process.env as it loads, before any npm package (host.ts).
export { SCOPED_ENV_VAR, scopeProcessEnv } from "./env_scope.ts";
export type * from "./plugin.ts";
export { createHost, type Host, type HostOptions, type HostServices } from "./create_host.ts";
export * from "./serve.ts";
export { runHostPrinter } from "./printer_process.ts";
export * from "./host_args.ts";
export {
  HOST_ENV_VARS,
  type HostPathOverrides,
  type HostPaths,
  resolveHostPaths,
} from "./paths.ts";
export { type ConfigDoc, ConfigFile, type ConfigFs, denoConfigFs } from "./config_file.ts";
export {
  defaultPermissionFor,
  hasPermission,
  parsePermissions,
  PERMISSIONS,
} from "./permissions.ts";
export {
  ADMIN_ONLY_LOGS,
  type DetailFile,
  ERRORS_LOG_NAME,
  errorsLog,
  type FileSink,
  fileSink,
  HOST_LOG_NAME,
} from "./host_log.ts";
export {
  HOST_COMMANDS_USAGE,
  type HostCommandIo,
  isHostCommand,
  runHostCommand,
} from "./account_commands.ts";
export {
  LIBRARY_ENV_VARS,
  pluginEnvVars,
  pluginReadPaths,
  type PluginScope,
  pluginScope,
  pluginSystemInfo,
  type ResolvedFiles,
  resolveReadFiles,
  RUNTIME_ENV_VARS,
  scopedPermissionFlags,
  type ScopeOptions,
  storedPluginSettings,
} from "./launch.ts";
export {
  mayConnect,
  type MissingScope,
  missingScope,
  type ScopeControl,
  ScopeWatch,
} from "./scope_watch.ts";
export { type ProbeRequest, SupervisorLink } from "./supervise/link.ts";
export * from "./supervise/launcher.ts";
export * from "./supervise/supervisor.ts";
export * from "./supervise/failsafe.ts";
export * from "./auth/mod.ts";
export * from "./settings/mod.ts";
export * from "./push/mod.ts";
export * from "./printer/mod.ts";
export * from "./supervise/child_processes.ts";
export {
  CONNECTION_PATH,
  define,
  definePluginPages,
  LOGIN_PATH,
  PAGES_BASE,
  requireSignIn,
  sessionUser,
  SETTINGS_PATH,
  settingsPathOf,
} from "./pages.ts";
export { SettingsFrame, settingsProps } from "./settings_page.tsx";
