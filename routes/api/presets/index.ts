/**
 * `GET /api/presets` (`{presets, broken}`: every usable preset, and the user files that cannot be
 * used with their reason) and `POST /api/presets` (`{name, values}`: save, 201).
 */
import type { Context } from "hono";
import { presetIndex, presetSave } from "../../../lib/control/presets.ts";
import { type DashboardEnv, servicesOf } from "../../../lib/control/services.ts";
import { readJsonObject } from "../../../lib/http/request.ts";

/** Route handlers. */
export const handler = {
  GET: async (c: Context<DashboardEnv>) =>
    c.json(await presetIndex(servicesOf(c).paths.presetsDir)),
  async POST(c: Context<DashboardEnv>) {
    const preset = await presetSave(servicesOf(c).paths.presetsDir, await readJsonObject(c));
    return c.json(preset, 201);
  },
};
