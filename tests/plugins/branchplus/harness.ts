/**
 * Runs the branchplus plugin on a fake context against an in-process hub simulator, with its
 * routes mounted in a small Hono app with the host's own error handler.
 *
 * @module
 */
import { Hono } from "hono";
import { errorHandler } from "../../../lib/http/error_handler.ts";
import type { Settings } from "../../../lib/host/plugin.ts";
import {
  BranchController,
  type BranchControllerOptions,
} from "../../../plugins/branchplus/controller.ts";
import { plugin } from "../../../plugins/branchplus/mod.ts";
import { branchRoutes } from "../../../plugins/branchplus/api.ts";
import { API_BASE } from "../../../plugins/branchplus/panel_client.ts";
import { type HubSimulator, startHubSimulator } from "../../doubles/powerhub_sim.ts";
import { waitFor } from "../../_helpers.ts";
import { type FakeContext, fakeContext } from "./fakes.ts";

/** A started plugin and its simulator. */
export interface PluginRun extends FakeContext {
  sim: HubSimulator;
  controller: BranchController;
  get(): Promise<Record<string, unknown>>;
  /** Posts a command, as `user` when given (the principal the host's authentication would set). */
  post(
    body: unknown,
    user?: string,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  /** Pushes of one type. */
  pushesOf(type: string): Record<string, unknown>[];
  /** Waits until the plugin is connected and has the hub's snapshot. */
  synced(): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@linkcode startPlugin}. */
export interface StartPluginOptions {
  /** Stored settings; `host` and `port` default to the simulator's. */
  settings?: Settings;
  /** Channels to switch on in the simulator before the plugin connects. */
  initiallyOn?: [string, number][];
  /** Build the controller directly with these options instead of through the descriptor. */
  controllerOptions?: BranchControllerOptions;
}

/** Starts a simulator and the plugin (through the descriptor's hooks) connected to it. */
export async function startPlugin(options: StartPluginOptions = {}): Promise<PluginRun> {
  const sim = await startHubSimulator({ port: 0 });
  for (const [kind, id] of options.initiallyOn ?? []) sim.setChannel(kind, id, true);
  const fake = fakeContext({ host: sim.host, port: sim.port, ...options.settings });
  const direct = options.controllerOptions
    ? new BranchController(fake.ctx, options.controllerOptions)
    : undefined;
  const instance = direct ? null : plugin.create!(fake.ctx);
  const routes = instance ? instance.routes! : branchRoutes(() => direct!, { clock: fake.clock });
  const app = new Hono();
  app.onError(errorHandler());
  app.use("*", async (c, next) => {
    const user = c.req.header("x-test-user");
    if (user) c.set("principal", { user, permissions: ["CONTROL", "STATUS"], via: "apikey" });
    await next();
  });
  for (const r of routes) app.route(r.base, r.app);
  if (direct) direct.start();
  else await instance!.start!();
  const controller = direct ?? instance!.controller;
  const run: PluginRun = {
    ...fake,
    sim,
    controller,
    get: async () => await (await app.request(API_BASE)).json(),
    post: async (body, user) => {
      const res = await app.request(API_BASE, {
        method: "POST",
        headers: { "content-type": "application/json", ...(user ? { "x-test-user": user } : {}) },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    pushesOf: (type) => fake.pushes.filter((p) => p.type === type),
    synced: async () => {
      await waitFor(
        () => controller.status().connected && fake.pushes.some((p) => p.type === "state"),
        "the plugin to sync with the hub",
      );
    },
    stop: async () => {
      if (direct) await direct.stop();
      else await instance!.stop!({ planned: false });
      await sim.close();
    },
  };
  return run;
}
