/** `GET /api/dashboard/stats`: the dashboard statistics object and the KPI counts. */
import { define } from "../../../lib/dashboard/services.ts";
import { snapshotResponse } from "../../../lib/http/mod.ts";
import { dashboardStats } from "../../../lib/store/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET: (c) => snapshotResponse(c, c.var.services.store.snapshots.get("stats", dashboardStats)),
});
