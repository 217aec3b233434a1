/**
 * `GET /plugins/settings`: the first hosted plugin's settings screen (each is at
 * `/plugins/<id>/settings`; 404 when no plugin has one).
 *
 * @module
 */
import { NotFoundError } from "../../lib/error.ts";
import { define } from "../../lib/host/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const first = c.var.settingsNav[0];
    if (!first) throw new NotFoundError("No hosted plugin has a settings screen");
    return c.redirect(first.href);
  },
});
