/**
 * The settings screens' calls to the host: read, save and reset one plugin's settings through
 * `/api/settings` (with the session's CSRF token), the setting a refusal names, and waiting for
 * the host to come back when a save makes it restart under a wider permission scope, and
 * sending a change again when it met the host restarting (browser code: no Deno APIs).
 *
 * @module
 */

/** A plugin's settings and which of its secrets are set, as the host answers them. */
export interface PluginSettings {
  values: Record<string, unknown>;
  secrets: Record<string, boolean>;
}

/** What a save answered besides the settings. */
export interface SaveResult extends PluginSettings {
  /** The host restarts to reach what the settings need (a new hub or broker, a CA file). */
  reapplying: boolean;
  /** The settings need a restart nobody can do for the user (no launcher). */
  restartNeeded: boolean;
  /** What the settings need: network destinations and files. */
  needs: string[];
}

/** A refused request: the host's message and, when it names one, the setting. */
export class SettingsRequestError extends Error {
  readonly status: number;
  readonly setting: string | null;
  constructor(message: string, status: number, setting: string | null) {
    super(message);
    this.name = "SettingsRequestError";
    this.status = status;
    this.setting = setting;
  }
}

/**
 * The setting a refusal is about, among `keys`: the body's `setting` when the host gives one,
 * else the first quoted name of the message that is one of them (every validator names the
 * setting that way: `Setting 'min_rate' must be ...`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settingNamed } from "./settings_api.ts";
 * const keys = ["update_interval", "calculation_interval"];
 * assert.equal(
 *   settingNamed({ error: "Setting 'calculation_interval' must not be longer than 'update_interval'" }, keys),
 *   "calculation_interval",
 * );
 * assert.equal(settingNamed({ error: "Unknown plugin 'x'" }, keys), null);
 * ```
 */
export function settingNamed(
  body: Record<string, unknown>,
  keys: readonly string[],
): string | null {
  if (typeof body.setting === "string" && keys.includes(body.setting)) return body.setting;
  const message = typeof body.error === "string" ? body.error : "";
  for (const m of message.matchAll(/'([^']+)'/g)) {
    if (keys.includes(m[1]!)) return m[1]!;
  }
  return null;
}

/** How long a change waits for a host that is restarting before it gives up. */
const RESTART_PATIENCE_MS = 30_000;

async function call(
  method: string,
  path: string,
  csrfToken: string,
  keys: readonly string[],
  body?: unknown,
): Promise<Record<string, unknown>> {
  const send = () =>
    fetch(path, {
      method,
      credentials: "same-origin",
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...(csrfToken ? { "X-CSRF-Token": csrfToken } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // A change that meets the host restarting (no answer, or 503 with Retry-After) is sent again
  // once it is back: a save during a restart is not lost.
  const giveUp = Date.now() + RESTART_PATIENCE_MS;
  let res: Response;
  while (true) {
    try {
      res = await send();
    } catch (err) {
      if (method === "GET" || Date.now() > giveUp) throw err;
      await waitForRestart({ downWithinMs: 0, upWithinMs: giveUp - Date.now() });
      continue;
    }
    const retryAfter = res.headers.get("Retry-After");
    if (res.status !== 503 || retryAfter === null || method === "GET" || Date.now() > giveUp) {
      break;
    }
    await res.body?.cancel();
    await pause(Math.max(250, Number(retryAfter) * 1000 || 0));
  }
  const data = await res.json().catch(() => ({})) as Record<string, unknown>;
  if (!res.ok) {
    const message = typeof data.error === "string" ? data.error : `Request failed (${res.status})`;
    throw new SettingsRequestError(message, res.status, settingNamed(data, keys));
  }
  return data;
}

function pluginPart(data: Record<string, unknown>, plugin: string): PluginSettings {
  const plugins = (data.plugins ?? {}) as Record<string, Record<string, unknown>>;
  const secrets = (data.secrets ?? {}) as Record<string, Record<string, boolean>>;
  return { values: plugins[plugin] ?? {}, secrets: secrets[plugin] ?? {} };
}

function saveResult(data: Record<string, unknown>, plugin: string): SaveResult {
  const needs = (data.needs ?? {}) as { net?: string[]; read?: string[] };
  return {
    ...pluginPart(data, plugin),
    reapplying: data.reapplying === true,
    restartNeeded: data.restart_needed === true,
    needs: [...(needs.net ?? []), ...(needs.read ?? [])],
  };
}

/** The settings of `plugin`. */
export async function loadSettings(plugin: string): Promise<PluginSettings> {
  return pluginPart(await call("GET", "/api/settings", "", []), plugin);
}

/**
 * Saves a partial update of `plugin`'s settings.
 *
 * @throws {SettingsRequestError} with the host's message and the setting it names.
 */
export async function saveSettings(
  plugin: string,
  update: Record<string, unknown>,
  csrfToken: string,
  keys: readonly string[],
): Promise<SaveResult> {
  const data = await call("POST", "/api/settings", csrfToken, keys, {
    plugins: { [plugin]: update },
  });
  return saveResult(data, plugin);
}

/** Resets `plugin` to its defaults. */
export async function resetSettings(plugin: string, csrfToken: string): Promise<SaveResult> {
  const path = `/api/settings/plugins/${encodeURIComponent(plugin)}`;
  return saveResult(await call("DELETE", path, csrfToken, []), plugin);
}

/** Options of {@linkcode waitForRestart}. */
export interface WaitOptions {
  /** Time for the host to go away before it is taken as already back. @default 5000 */
  downWithinMs?: number;
  /** Time for the host to answer again. @default 30000 */
  upWithinMs?: number;
  /** Between two checks. @default 250 */
  everyMs?: number;
  /** One check: whether the host answers. @default `GET /api/settings` answers at all */
  answers?(): Promise<boolean>;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function hostAnswers(): Promise<boolean> {
  try {
    const res = await fetch("/api/settings", { credentials: "same-origin", cache: "no-store" });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits while the host restarts: first until it stops answering (a restart takes it away for a
 * moment), then until it answers again. Returns false when it is not back in time.
 */
export async function waitForRestart(options: WaitOptions = {}): Promise<boolean> {
  const answers = options.answers ?? hostAnswers;
  const every = options.everyMs ?? 250;
  const downBy = Date.now() + (options.downWithinMs ?? 5000);
  while (Date.now() < downBy && await answers()) await pause(every);
  const upBy = Date.now() + (options.upWithinMs ?? 30_000);
  while (Date.now() < upBy) {
    if (await answers()) return true;
    await pause(every);
  }
  return false;
}
