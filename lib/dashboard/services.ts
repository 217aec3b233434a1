/**
 * What the dashboard's routes use, handed to them through the request state (`c.var`, Fresh's
 * `ctx.state`): the benchmark controller, the results store, the paths and the shutdown hook.
 *
 * @module
 */
import { createDefine, type Define } from "../http/mod.ts";
import type { WebState } from "../web/state.ts";
import type { Paths } from "../config/mod.ts";
import type { ResultsStore } from "../store/mod.ts";
import type { FleetService } from "../fleet/mod.ts";
import type { BenchmarkController } from "./controller.ts";

/** The dashboard's services. */
export interface DashboardServices {
  controller: BenchmarkController;
  store: ResultsStore;
  /** The fleet of agents (a PostgreSQL store only); null or absent with SQLite. */
  fleet?: FleetService | null;
  paths: Paths;
  /** Whether control requests need the token (the server is bound to a non-loopback address). */
  tokenRequired: boolean;
  /** Stops the benchmark, then terminates the process after a short delay. */
  shutdown(): Promise<void>;
  /** Clock. */
  now(): Date;
}

/** The request state of the dashboard's routes. */
export interface DashboardState extends WebState {
  services: DashboardServices;
}

/** The typed helpers of the dashboard's routes (`routes/`, `routes/api/`). */
export const define: Define<DashboardState> = createDefine<DashboardState>();
