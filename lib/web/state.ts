/**
 * The request state every page of the web app shares (`c.var`, Fresh's `ctx.state`): what the
 * root layout draws in the top bar. Each area adds its own (the dashboard its services, the
 * host pages the signed-in user and the plugin's instance).
 *
 * @module
 */
import { createDefine, type Define } from "../http/fw/mod.ts";

/** A link of the top bar. */
export interface NavLink {
  href: string;
  label: string;
}

/** The state of every page. */
export interface WebState {
  /** The top bar's links: the dashboard's views, then each hosted plugin's page. */
  nav: NavLink[];
  /** Islands (by name) in the top bar of a signed-in host user: the plugins' navbar widgets. */
  navbar: string[];
  /** The signed-in host user (set on the host's pages). */
  user?: string;
}

/** The typed helpers of what every page shares (the root `_app` and `_layout`). */
export const define: Define<WebState> = createDefine<WebState>();
