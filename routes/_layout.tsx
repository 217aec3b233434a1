/**
 * The frame of every page: the top bar (the dashboard's views, each hosted plugin's page, the
 * printer's connection page and the plugins' settings, the current one marked; for a signed-in host user the plugins' widgets, the
 * user and a logout button, for a visitor a "Log in" link) and the page inside `<main>`.
 *
 * @module
 */
import { islandComponent } from "../lib/http/mod.ts";
import { currentLink, define } from "../lib/web/state.ts";
import UserMenu from "../islands/UserMenu.tsx";

/** The page frame. */
export default define.layout(function Layout({ Component, url, state }) {
  const nav = state.nav ?? [];
  const current = currentLink(nav, url.pathname);
  const here = `${url.pathname}${url.search}`;
  return (
    <>
      <header class="topbar">
        <a class="brand" href={nav[0]?.href ?? "/"}>localbench</a>
        <nav aria-label="Main">
          {nav.map((link) => (
            <a
              key={link.href}
              href={link.href}
              aria-current={link === current ? "page" : undefined}
            >
              {link.label}
            </a>
          ))}
        </nav>
        {state.user
          ? (
            <div class="topbar-user">
              {(state.navbar ?? []).map((name) => {
                const Widget = islandComponent(name);
                return Widget ? <Widget key={name} /> : null;
              })}
              <UserMenu user={state.user} csrfToken={state.csrfToken ?? ""} />
            </div>
          )
          : state.loginPath && url.pathname !== state.loginPath
          ? (
            <div class="topbar-user">
              <a
                class="login-link"
                href={`${state.loginPath}?next=${encodeURIComponent(here)}`}
                data-testid="login-link"
              >
                Log in
              </a>
            </div>
          )
          : null}
      </header>
      <main>
        <Component />
      </main>
    </>
  );
});
