/**
 * `GET /api/presets` (`{presets, broken}`: every usable preset, and the user files that cannot be
 * used with their reason) and `POST /api/presets` (`{name, values}`: save, 201).
 */
import { presetIndex, presetSave } from "../../../lib/dashboard/presets.ts";
import { define } from "../../../lib/dashboard/services.ts";
import { readJsonObject } from "../../../lib/http/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET: async (c) => c.json(await presetIndex(c.var.services.paths.presetsDir)),
  async POST(c) {
    const preset = await presetSave(c.var.services.paths.presetsDir, await readJsonObject(c));
    return c.json(preset, 201);
  },
});
