/** `DELETE /api/cache/{model_key}`: deletes one model variant and its history (keys may hold `/`). */
import { deleteCachedModel } from "../../../lib/dashboard/cache.ts";
import { define } from "../../../lib/dashboard/services.ts";

/** Route handlers. */
export const handler = define.handlers({
  DELETE: (c) => c.json(deleteCachedModel(c.var.services, c.req.param("key") ?? "")),
});
