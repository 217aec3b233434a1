/**
 * HTTP routes of the Temperature ETA plugin: `GET /api/plugin/<id>` (status: enabled,
 * algorithm, per-heater ETAs, MQTT enabled/connected), `POST /api/plugin/<id>` with a
 * `command` (`reset_history`, `reconnect_mqtt`), and the static sounds under
 * `/plugin/<id>/static/sounds/<file>`. The host authenticates every request first.
 *
 * @module
 */
import { Hono } from "hono";
import type { PluginRoutes } from "../../lib/host/mod.ts";
import type { TempEtaService } from "./service.ts";
import { NotFoundError, UsageError } from "../../lib/error.ts";
import { readJsonObject } from "../../lib/http/mod.ts";
import { ETA_API } from "./status_feed.ts";
import { isRefusal, type NamedFile, openNamedFile, readNamedFile } from "../../lib/named_file.ts";
import {
  DEFAULT_SOUNDS,
  renderDefaultSound,
  SOUND_NAME,
  SOUNDS_DIR,
  STATIC_BASE,
} from "./sounds.ts";

const rendered = new Map<string, Uint8Array<ArrayBuffer>>();

function defaultSound(name: string): Uint8Array<ArrayBuffer> {
  let bytes = rendered.get(name);
  if (!bytes) {
    bytes = new Uint8Array(renderDefaultSound(name));
    rendered.set(name, bytes);
  }
  return bytes;
}

const AUDIO_TYPES: Record<string, string> = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
};

/** The status/command sub-app. */
export function apiApp(service: TempEtaService): Hono {
  const app = new Hono();
  app.get("/", (c) => c.json(service.status()));
  app.post("/", async (c) => {
    const command = (await readJsonObject(c)).command;
    switch (command) {
      case "reset_history":
        service.resetHistory();
        return c.json({ ok: true });
      case "reconnect_mqtt":
        service.reconnectMqtt();
        return c.json({ ok: true, mqtt: service.status().mqtt });
      default:
        throw new UsageError(`Unknown command ${JSON.stringify(command ?? null)}`, {
          code: "unknown_command",
        });
    }
  });
  return app;
}

/** The static sub-app: the sound files. */
export function staticApp(): Hono {
  const app = new Hono();
  app.get("/sounds/:name", async (c) => {
    const name = c.req.param("name");
    const type = AUDIO_TYPES[name.split(".").pop() ?? ""];
    const headers = { "content-type": type ?? "", "cache-control": "max-age=3600" };
    // The default sounds are generated in memory: served even where the folder is not readable.
    if (Object.hasOwn(DEFAULT_SOUNDS, name)) return c.body(defaultSound(name), 200, headers);
    // Anything else only through the one named-file reader; every refusal is a plain 404.
    let opened: NamedFile;
    try {
      opened = await openNamedFile(SOUNDS_DIR, name, { pattern: SOUND_NAME });
    } catch (err) {
      if (isRefusal(err)) {
        throw new NotFoundError("Sound file not found");
      }
      throw err;
    }
    return c.body(await readNamedFile(opened), 200, headers);
  });
  return app;
}

/** The plugin's route tables. */
export function routesOf(service: TempEtaService): PluginRoutes[] {
  return [
    { base: ETA_API, app: apiApp(service) },
    { base: STATIC_BASE, app: staticApp() },
  ];
}
