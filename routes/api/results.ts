/** `GET /api/results`: one row per model variant with its latest figures and metadata. */
import type { Context } from "hono";
import { type DashboardEnv, servicesOf } from "../../lib/control/services.ts";
import { snapshotResponse } from "../../lib/http/snapshot.ts";
import { resultsTable } from "../../lib/store/dashboard.ts";

/** Route handlers. */
export const handler = {
  GET(c: Context<DashboardEnv>) {
    const snapshot = servicesOf(c).store.snapshots.get("results", (db) => {
      const results = resultsTable(db);
      return { count: results.length, results };
    });
    return snapshotResponse(c, snapshot);
  },
};
