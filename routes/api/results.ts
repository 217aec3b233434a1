/**
 * `GET /api/results`: one row per identity with its latest figures and metadata, in columns
 * (`{count, columns, rows}`: lib/shared/columns.ts).
 */
import { define } from "../../lib/dashboard/services.ts";
import { snapshotResponse } from "../../lib/http/mod.ts";
import { resultsColumns } from "../../lib/store/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const snapshot = c.var.services.store.snapshots.get("results", (db) => {
      const table = resultsColumns(db);
      return { count: table.rows.length, ...table };
    });
    return snapshotResponse(c, snapshot);
  },
});
