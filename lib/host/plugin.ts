/**
 * The plugin contract of the plugin host. A plugin lives in `plugins/<id>/` and its `mod.ts`
 * exports a named `plugin` of type {@linkcode PluginDescriptor}: what the plugin is (id,
 * settings, scope) and `create(ctx)`, which the host calls once per run with every service in a
 * {@linkcode PluginContext} and which returns the {@linkcode PluginInstance} the host holds
 * (routes, start, stop). Plugins never import each other.
 *
 * @module
 */
import type { Hono } from "hono";
import type * as v from "valibot";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";

/**
 * Permissions of the host: STATUS reads, CONTROL commands, CONNECTION connects or disconnects the
 * printer, SETTINGS changes settings; ADMIN implies all others.
 */
export type Permission = "STATUS" | "CONTROL" | "CONNECTION" | "SETTINGS" | "ADMIN";

/** A plugin's settings as the host stores and serves them: a JSON object. */
export type Settings = Record<string, unknown>;

/**
 * The schema of a plugin's settings (valibot, see `lib/schema`): every setting with its type,
 * default (`v.optional(field, default)`) and rules, unknown keys and lists refused (`object()` of `lib/schema`), and
 * the cross-setting rules (`rule()` in a pipe). Parsing `{}` gives the defaults.
 */
export type SettingsSchema<S extends Settings> = v.GenericSchema<unknown, S>;

export type {
  HeaterName,
  HeaterReading,
  PrinterAccess,
  PrinterEvent,
  PrinterSnapshot,
  PrinterState,
  TemperatureSample,
} from "../printer/printer.ts";
import type { PrinterAccess } from "../printer/printer.ts";

/** A plugin's view of its own settings in the host's settings store. */
export interface SettingsAccess<S extends Settings = Settings> {
  /** The current, validated settings with defaults applied. */
  get(): S;
  /** Merges and saves a partial update (validated by its schema; throws a 400 `SettingError`). */
  update(partial: Settings): Promise<S>;
  /** Subscribes to saved changes; returns the unsubscribe function. */
  onChange(listener: (next: S, previous: S) => void): () => void;
}

/** Options of a push message. */
export interface PushOptions {
  /** Only clients holding this permission receive it. @default "STATUS" */
  permission?: Permission;
}

/** Services the host gives a plugin whose settings are `S`. */
export interface PluginContext<S extends Settings = Settings> {
  /** The plugin id. */
  id: string;
  logger: Logger;
  clock: Clock;
  /** The plugin's own data folder (created by the host). */
  dataDir: string;
  /** The host's log folder (the log monitor reads it; the host writes its own log there). */
  logDir: string;
  settings: SettingsAccess<S>;
  printer: PrinterAccess;
  /** Sends `{"plugin": {"plugin": id, "data": data}}` to every connected push-socket client. */
  push(data: Record<string, unknown>, options?: PushOptions): void;
  /** Environment variables visible to the plugin (e.g. `TEMP_ETA_*` overrides). */
  env: Record<string, string>;
  /**
   * True when the host restarted itself (to apply a wider permission scope): the plugin carries
   * on, e.g. the branch controller keeps the outputs as the hub reports them. @default false
   */
  resumed?: boolean;
  /**
   * When the service started, ms since the epoch: under the launcher (`deno task host`) its own
   * start, the same across the host's restarts; else when the host was created.
   */
  serviceStartedAt?: number;
  /**
   * State carried across a planned restart: set it in `stop` when `info.planned`, read it
   * in `start` when {@linkcode resumed} (a JSON value; undefined otherwise).
   */
  handover?: Handover;
  /**
   * The path to read for a file the plugin's settings name: under the launcher, the real path it
   * granted (links resolved); elsewhere the path itself.
   */
  grantedFile?(path: string): string;
  /**
   * Runs one of the plugin's {@linkcode PluginDescriptor.probes} in a process of the launcher's
   * that may reach `net` only (for a destination this host may not reach yet). Present only
   * when a launcher supervises the host.
   */
  probeOutside?(
    probe: string,
    args: Record<string, unknown>,
    net: string[],
  ): Promise<Record<string, unknown>>;
}

/** State a plugin hands to its next run across a planned restart. */
export interface Handover {
  /** The state the previous run handed over (undefined when none, or not resumed). */
  get(): unknown;
  /** Hands `state` (a JSON value) to the next run. */
  set(state: unknown): void;
}

/** Why the host stops. */
export interface ShutdownInfo {
  /** A planned restart (the host comes back at once): outputs stay as they are. */
  planned: boolean;
}

/** A route table a plugin mounts under its base path. */
export interface PluginRoutes {
  /** Base path, e.g. `/plugin/logmonitor` or `/api/plugin/host_uptime`. */
  base: string;
  /** Hono sub-app; the host authenticates every request before it reaches the app. */
  app: Hono;
  /**
   * Permission needed per method. Defaults: GET/HEAD → STATUS, other methods → CONTROL.
   */
  permissions?: Partial<Record<"GET" | "POST" | "PUT" | "DELETE", Permission>>;
  /**
   * Permission needed by one request, by method and path below `base` (e.g. `/alerts/reset`);
   * `undefined` falls back to `permissions` and the defaults.
   */
  permissionFor?(method: string, path: string): Permission | undefined;
}

/**
 * One run of a plugin, created by {@linkcode PluginDescriptor.create} and held by the host: its
 * routes (mounted when the host is built) and its lifecycle.
 */
export interface PluginInstance {
  /** Route tables the host mounts under their bases, behind authentication. */
  routes?: PluginRoutes[];
  /** Called before the server listens (settings loaded, printer started). */
  start?(): void | Promise<void>;
  /** Called once the server listens ("startup complete"). */
  ready?(): void | Promise<void>;
  /** Called on shutdown; must release timers, sockets and files. */
  stop?(info: ShutdownInfo): void | Promise<void>;
}

/**
 * How a plugin appears in the web app. Its pages are the route files of `plugins/<id>/routes/`
 * (mounted at `/plugins/<id>/`, behind the host's sign-in), its islands those of
 * `plugins/<id>/islands/` (named `<id>/<File>`) and its styles `plugins/<id>/styles.css`; the
 * build gathers them, this says how to link them.
 */
export interface PluginUi {
  /** The label of the plugin's page (`/plugins/<id>/`) in the top bar. */
  nav?: string;
  /** Former URLs of that page: answered with a permanent redirect to it (query kept). */
  formerPaths?: string[];
  /** The plugin's islands (by file name, without the id) in the top bar of a signed-in user. */
  navbar?: string[];
}

/**
 * What `plugins/<id>/mod.ts` exports as `plugin`: `S` is the type of its settings (its schema's
 * output), `I` the type of its instance.
 */
export interface PluginDescriptor<
  out S extends Settings = Settings,
  I extends PluginInstance = PluginInstance,
> {
  id: string;
  name: string;
  version: string;
  /** Current settings version (stored beside the settings in config.yaml). */
  settingsVersion: number;
  /**
   * Every setting: type, default, rules (see {@linkcode SettingsSchema}). The host validates
   * every candidate (defaults + stored + update) with it; a refusal names the setting's path.
   */
  settingsSchema: SettingsSchema<S>;
  /**
   * Merges a saved partial update into the current settings (before validation).
   * @default the one deep merge (`lib/config/merge.ts`): objects merge, arrays and other values
   * replace, a `null` keeps the current value
   */
  mergeSettingsUpdate?(current: S, partial: Settings): Settings;
  /** Migrates stored settings from `fromVersion` to `settingsVersion`. */
  migrateSettings?(stored: Settings, fromVersion: number): Settings;
  /** The plugin's pages and top-bar widgets in the web app. @default none */
  ui?: PluginUi;
  /** Setting keys never returned by `GET /api/settings` nor shown in a message (secrets). */
  restrictedSettings?: readonly string[];
  /**
   * Creates the plugin's instance for one run of the host (the host calls it once, when it is
   * built, and keeps the instance). A plugin without routes or work of its own may leave it out.
   */
  create?(ctx: PluginContext<S>): I;
  /**
   * Environment variables the plugin reads (e.g. `TEMP_ETA_ALGORITHM`). The permission-scoped
   * host passes only these (and its own) to the process and into `ctx.env`.
   */
  envVars?: string[];
  /** System information the plugin reads (Deno's `--allow-sys` kinds, e.g. `osUptime`). */
  systemInfo?: string[];
  /**
   * Folders or files outside the host's own that the plugin only reads (e.g. the files of an npm
   * package loaded at run time). The permission-scoped host grants read access to these only.
   */
  readPaths?: string[];
  /**
   * Network destinations (`host` or `host:port`) the plugin connects to with these settings
   * (e.g. the hub, the MQTT broker). The permission-scoped host allows only these and its own
   * listen address; when a saved change needs a destination the running host may not reach,
   * the launcher restarts the host under the wider scope.
   */
  networkHosts?(settings: S): string[];
  /**
   * Files outside the host's folders the plugin reads with these settings (e.g. a CA
   * certificate). The permission-scoped host may read these files alone, after links are
   * resolved; like {@linkcode networkHosts}, a change widens the scope through a restart.
   */
  readFiles?(settings: S): string[];
  /**
   * One-shot checks the launcher may run on the host's behalf in a process allowed to reach only
   * the checked destination (see {@linkcode PluginContext.probeOutside}).
   */
  probes?: Record<string, (args: Record<string, unknown>) => Promise<Record<string, unknown>>>;
  /**
   * What the launcher does for the plugin when the host stays down (it crashed and is not back):
   * once it has been down `delaySeconds(settings)`, the launcher runs `apply(settings)` in a
   * process that may reach {@linkcode networkHosts} of these settings and nothing else (settings
   * as config.yaml stores them, restricted ones left out), and logs the outcome. The branch
   * controller switches its outputs to their failsafe states, as on a real stop of the host.
   */
  failsafe?: PluginFailsafe<S>;
}

/** See {@linkcode PluginDescriptor.failsafe}. */
export interface PluginFailsafe<S extends Settings> {
  /** Seconds the host may be down before `apply` runs; null: nothing to do with these settings. */
  delaySeconds(settings: S): number | null;
  /** Applies the failsafe once (in the launcher's process for it) and says what happened. */
  apply(settings: S): Promise<FailsafeOutcome>;
}

/** What a plugin's {@linkcode PluginFailsafe.apply} did, as the launcher logs it. */
export interface FailsafeOutcome {
  /** False when it could not do all of it (logged at ERROR, else WARNING). */
  ok: boolean;
  /** One sentence: what was switched, or why not. */
  message: string;
}
