/** `GET /api/results`: one row per model variant with its latest figures and metadata. */
import { define } from "../../lib/control/services.ts";
import { snapshotResponse } from "../../lib/http/snapshot.ts";
import { resultsTable } from "../../lib/store/dashboard.ts";

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
