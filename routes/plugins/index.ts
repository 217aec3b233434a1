/**
 * `GET /plugins`: the first hosted plugin's page (the printer's page when no plugin has one).
 *
 * @module
 */
import { CONNECTION_PATH, define, PAGES_BASE } from "../../lib/host/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const first = c.var.nav.find((link) => link.href.startsWith(`${PAGES_BASE}/`));
    return c.redirect(first?.href ?? CONNECTION_PATH);
  },
});
