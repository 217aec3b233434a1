/**
 * Every dashboard API route: a state-changing request from another origin is refused (403), so
 * a page elsewhere cannot drive the benchmark through the user's browser.
 *
 * @module
 */
import { define } from "../../lib/dashboard/services.ts";
import { sameOrigin } from "../../lib/http/mod.ts";

/** Same-origin check of the dashboard's API. */
export default define.middleware(sameOrigin());
