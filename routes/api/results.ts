/** `GET /api/results`: one row per model variant with its latest figures and metadata. */
import { define } from "../../lib/dashboard/services.ts";
import { snapshotResponse } from "../../lib/http/mod.ts";
import { resultsTable } from "../../lib/store/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const snapshot = c.var.services.store.snapshots.get("results", (db) => {
      const results = resultsTable(db);
      return { count: results.length, results };
    });
    return snapshotResponse(c, snapshot);
  },
});
