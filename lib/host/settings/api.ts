/**
 * `GET /api/settings` (STATUS; restricted settings omitted), `POST /api/settings`
 * (`{plugins: {<id>: {...}}}`, SETTINGS) and `DELETE /api/settings/plugins/<id>` (SETTINGS). Each
 * answers `{plugins, secrets}`: `secrets` says per plugin which restricted settings hold a value
 * (`{"temp_eta": {"mqtt_password": true}}`), never the value.
 *
 * @module
 */
import { Hono } from "hono";
import { UsageError } from "../../error.ts";
import { readJsonObject } from "../../http/mod.ts";
import { requirePermission } from "../auth/mod.ts";
import type { SettingsStore } from "./store.ts";
import { isPlainObject } from "../../shared/json_object.ts";

/** Options of {@linkcode settingsRoutes}. */
export interface SettingsRoutesOptions {
  /** Runs after every save; its fields are added to the response (e.g. `reapplying`). */
  afterSave?(): Record<string, unknown>;
  /** Runs before every change; throws when changes are not taken now (the host stopping). */
  beforeChange?(): void;
}

/** The settings sub-app (mount at `/api/settings`). */
export function settingsRoutes(store: SettingsStore, options: SettingsRoutesOptions = {}): Hono {
  const view = () => ({ plugins: store.publicView(), secrets: store.secretsView() });
  const saved = () => ({ ...view(), ...options.afterSave?.() });
  const app = new Hono();
  app.get("/", requirePermission("STATUS"), (c) => c.json(view()));
  app.post("/", requirePermission("SETTINGS"), async (c) => {
    options.beforeChange?.();
    const body = await readJsonObject(c);
    for (const key of Object.keys(body)) {
      if (key !== "plugins") throw new UsageError(`Unknown settings section '${key}'`);
    }
    const plugins = body.plugins ?? {};
    if (!isPlainObject(plugins)) {
      throw new UsageError("Cannot save settings: 'plugins' must be an object");
    }
    await store.updateMany(plugins);
    return c.json(saved());
  });
  app.delete("/plugins/:id", requirePermission("SETTINGS"), async (c) => {
    options.beforeChange?.();
    await store.reset(c.req.param("id"));
    return c.json(saved());
  });
  return app;
}
