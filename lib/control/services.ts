/**
 * What the dashboard's routes use, handed to them through the request context (Fresh's
 * `ctx.state`): the benchmark controller, the results store, the paths and the shutdown hook.
 *
 * @module
 */
import type { Context } from "hono";
import type { Paths } from "../config/mod.ts";
import type { ResultsStore } from "../store/mod.ts";
import type { BenchmarkController } from "./controller.ts";

/** The dashboard's services. */
export interface DashboardServices {
  controller: BenchmarkController;
  store: ResultsStore;
  paths: Paths;
  /** Whether control requests need the token (the server is bound to a non-loopback address). */
  tokenRequired: boolean;
  /** Stops the benchmark, then terminates the process after a short delay. */
  shutdown(): Promise<void>;
  /** Clock. */
  now(): Date;
}

/** The Hono environment of the dashboard's routes. */
export type DashboardEnv = { Variables: { services: DashboardServices } };

/** The services of a request. */
export function servicesOf(c: Context<DashboardEnv>): DashboardServices {
  return c.get("services");
}
