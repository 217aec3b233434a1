/** `GET /api/results`: one row per model variant with its latest figures and metadata. */
import type { Context } from "hono";
import { type DashboardEnv, servicesOf } from "../../lib/control/services.ts";
import { resultsTable } from "../../lib/store/dashboard.ts";

/** Route handlers. */
export const handler = {
  GET(c: Context<DashboardEnv>) {
    const results = resultsTable(servicesOf(c).store.db);
    return c.json({ count: results.length, results });
  },
};
