/**
 * The HTTP surface: `GET /api/plugin/<id>` (STATUS) returns the controller state and
 * `POST /api/plugin/<id>` (CONTROL) runs a command. Errors are thrown as `AppError` and
 * mapped to their status by the host's error handler.
 *
 * @module
 */
import { Hono } from "hono";
import { readJsonObject } from "../../lib/http/mod.ts";
import type { PluginRoutes } from "../../lib/host/mod.ts";
import { runCommand } from "./api_commands.ts";
import type { BranchController } from "./controller.ts";
import { API_BASE } from "./panel_client.ts";

/** Builds the route table of the plugin for one controller. */
export function branchRoutes(controller: () => BranchController): PluginRoutes[] {
  const app = new Hono();
  app.get("/", (c) => c.json(controller().status()));
  app.post("/", async (c) => {
    return c.json(await runCommand(controller(), await readJsonObject(c)));
  });
  return [{ base: API_BASE, app, permissions: { GET: "STATUS", POST: "CONTROL" } }];
}
