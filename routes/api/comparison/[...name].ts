/**
 * `GET /api/comparison/{model_name}[?limit=N&before=CURSOR | ?per_line=N][&machine=ID]`: the
 * history and trend of one model (`model_name` or a variant's `model_key`; names containing `/`
 * work): its lines and figures over every finished result, one bounded window of points (a page,
 * newest first, with the `next` cursor; or every line downsampled), each variant's newest load
 * curve on each machine (`load_curves`) and the newest result of each line on each machine
 * (`machines`). With `machine` (an id, `unknown`: no machine recorded), the lines, points and load
 * curves of that machine only; `machines` still lists every machine. 404 when it has no finished
 * result (on that machine), 400 for a bad window.
 */
import { comparisonMachine, comparisonWindow } from "../../../lib/dashboard/comparison_window.ts";
import { define } from "../../../lib/dashboard/services.ts";
import { NotFoundError } from "../../../lib/error.ts";
import { loadCurves, modelHistory, modelOnMachines } from "../../../lib/store/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const name = c.req.param("name") ?? "";
    const window = comparisonWindow((k) => c.req.query(k));
    const machine = comparisonMachine((k) => c.req.query(k));
    const db = c.var.services.store.db;
    const history = modelHistory(db, name, window, machine);
    if (!history || (machine !== undefined && history.series.length === 0)) {
      throw new NotFoundError(
        `Cannot find results of model '${name}'${machine === undefined ? "" : " on that machine"}`,
      );
    }
    return c.json({
      ...history,
      load_curves: loadCurves(db, name, machine),
      machines: modelOnMachines(db, name),
    });
  },
});
