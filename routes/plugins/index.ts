/**
 * `GET /plugins`: the first hosted plugin's page (404 when no plugin has one).
 *
 * @module
 */
import { NotFoundError } from "../../lib/error.ts";
import { define, PAGES_BASE } from "../../lib/host/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const first = c.var.nav.find((link) => link.href.startsWith(`${PAGES_BASE}/`));
    if (!first) throw new NotFoundError("No hosted plugin has a page");
    return c.redirect(first.href);
  },
});
