/** `GET /api/dashboard/stats`: the dashboard statistics object and the KPI counts. */
import type { Context } from "hono";
import { type DashboardEnv, servicesOf } from "../../../lib/control/services.ts";
import { snapshotResponse } from "../../../lib/http/snapshot.ts";
import { dashboardStats } from "../../../lib/store/dashboard.ts";

/** Route handlers. */
export const handler = {
  GET: (c: Context<DashboardEnv>) =>
    snapshotResponse(c, servicesOf(c).store.snapshots.get("stats", dashboardStats)),
};
