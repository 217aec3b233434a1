/**
 * `GET /api/comparison/{model_name}`: the history and trend of one model (`model_name` or a
 * variant's `model_key`; names containing `/` work), with each variant's newest load curve
 * (`load_curves`). 404 when it has no finished result.
 */
import { define } from "../../../lib/dashboard/services.ts";
import { NotFoundError } from "../../../lib/error.ts";
import { loadCurves, modelHistory } from "../../../lib/store/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const name = c.req.param("name") ?? "";
    const history = modelHistory(c.var.services.store.db, name);
    if (!history) throw new NotFoundError(`Cannot find results of model '${name}'`);
    return c.json({ ...history, load_curves: loadCurves(c.var.services.store.db, name) });
  },
});
