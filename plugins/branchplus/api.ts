/**
 * The HTTP surface: `GET /api/plugin/<id>` (STATUS) returns the controller state and
 * `POST /api/plugin/<id>` (CONTROL) runs a command. Every failure of a command answers
 * `{ok: false, reason, detail}` (the seed's shape): those the controller reports with status 200,
 * thrown ones with their error's status (400 bad input, 413 too large, 429 with `Retry-After` over
 * the switch limit, 500 without details for a bug), `reason` being the error's code. Switch
 * commands are limited per account (`./api_limit.ts`).
 *
 * @module
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { systemClock } from "../../lib/clock.ts";
import { describeError, readJsonObject } from "../../lib/http/mod.ts";
import type { PluginRoutes } from "../../lib/host/mod.ts";
import type { Logger } from "../../lib/log.ts";
import { runCommand } from "./api_commands.ts";
import { createSwitchCommandLimit } from "./api_limit.ts";
import type { Clock } from "../../lib/clock.ts";
import type { BranchController } from "./controller.ts";
import { API_BASE } from "./panel_client.ts";

/** Options of {@linkcode branchRoutes}. */
export interface BranchRoutesOptions {
  /** The clock of the switch limit. @default systemClock */
  clock?: Clock;
  /** Where a bug (a 500) is logged. @default not logged */
  logger?: Logger;
}

/**
 * The account a request counts for: the signed-in user of its session or API key (the host
 * authenticates every request before it gets here); `anonymous` only where no host is in front.
 */
const ACCOUNT_NONE = "anonymous";

/** Builds the route table of the plugin for one controller. */
export function branchRoutes(
  controller: () => BranchController,
  options: BranchRoutesOptions = {},
): PluginRoutes[] {
  const limit = createSwitchCommandLimit(options.clock ?? systemClock);
  const app = new Hono();
  app.get("/", (c) => c.json(controller().status()));
  app.post("/", async (c) => {
    const account = c.get("principal")?.user ?? ACCOUNT_NONE;
    const caller = { admitSwitch: () => limit.admit(account) };
    return c.json(await runCommand(controller(), await readJsonObject(c), caller));
  });
  app.onError((err, c) => {
    const info = describeError(err, c, options.logger);
    return c.json(
      { ok: false, reason: info.code, detail: info.error },
      info.status as ContentfulStatusCode,
    );
  });
  return [{ base: API_BASE, app, permissions: { GET: "STATUS", POST: "CONTROL" } }];
}
