/**
 * The request state every page of the web app shares (`c.var`, Fresh's `ctx.state`): what the
 * root layout draws in the top bar. Each area adds its own (the dashboard its services, the
 * host pages the signed-in user and the plugin's instance).
 *
 * @module
 */
import { createDefine, type Define } from "../http/mod.ts";

/** A link of the top bar. */
export interface NavLink {
  href: string;
  label: string;
  /** Other pages this link stands for (it is marked current on them too). */
  covers?: string[];
}

/**
 * The link of the page at `path`: the one naming it (or covering it), else the plugin link whose
 * pages are below it.
 */
export function currentLink(nav: NavLink[], path: string): NavLink | undefined {
  const exact = nav.find((link) => link.href === path || link.covers?.includes(path));
  if (exact) return exact;
  return nav.find((link) =>
    link.href.endsWith("/") && link.href !== "/" && `${path}/`.startsWith(link.href)
  );
}

/** The state of every page. */
export interface WebState {
  /**
   * The top bar's links: the dashboard's views, then each hosted plugin's page, the printer's
   * connection page and the settings screens.
   */
  nav: NavLink[];
  /** Islands (by name) in the top bar of a signed-in host user: the plugins' navbar widgets. */
  navbar: string[];
  /**
   * The settings screens of the hosted plugins (`/plugins/<id>/settings`), labelled with each
   * plugin's name; empty without the host's pages.
   */
  settingsNav: NavLink[];
  /** The host's login page, when the host's pages are served (a "Log in" link for a visitor). */
  loginPath?: string;
  /** The signed-in host user (on every page once a browser has a host session). */
  user?: string;
  /** The session's CSRF token (empty for a request made with an API key). */
  csrfToken?: string;
}

/** The typed helpers of what every page shares (the root `_app` and `_layout`). */
export const define: Define<WebState> = createDefine<WebState>();
