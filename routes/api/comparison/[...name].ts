/**
 * `GET /api/comparison/{model_name}[?limit=N&before=CURSOR | ?per_line=N]`: the history and
 * trend of one model (`model_name` or a variant's `model_key`; names containing `/` work): its
 * lines and figures over every finished result, one bounded window of points (a page, newest
 * first, with the `next` cursor; or every line downsampled), each variant's newest load curve
 * (`load_curves`) and the newest result of each line on each machine (`machines`). 404 when it
 * has no finished result, 400 for a bad window.
 */
import { comparisonWindow } from "../../../lib/dashboard/comparison_window.ts";
import { define } from "../../../lib/dashboard/services.ts";
import { NotFoundError } from "../../../lib/error.ts";
import { loadCurves, modelHistory, modelOnMachines } from "../../../lib/store/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const name = c.req.param("name") ?? "";
    const window = comparisonWindow((k) => c.req.query(k));
    const history = modelHistory(c.var.services.store.db, name, window);
    if (!history) throw new NotFoundError(`Cannot find results of model '${name}'`);
    const db = c.var.services.store.db;
    return c.json({
      ...history,
      load_curves: loadCurves(db, name),
      machines: modelOnMachines(db, name),
    });
  },
});
