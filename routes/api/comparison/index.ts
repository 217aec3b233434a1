/** `GET /api/comparison`: the models that have history, for the comparison picker. */
import { define } from "../../../lib/dashboard/services.ts";
import { comparableModels } from "../../../lib/store/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET: (c) => c.json({ models: comparableModels(c.var.services.store.db) }),
});
