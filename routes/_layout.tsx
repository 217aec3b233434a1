/**
 * The frame of every page: the top bar (the dashboard's views and each hosted plugin's page,
 * the current one marked; for a signed-in host user the plugins' widgets and the user) and the
 * page inside `<main>`.
 *
 * @module
 */
import { islandComponent } from "../lib/http/fw/mod.ts";
import { define, type NavLink } from "../lib/web/state.ts";

/** Whether `link` is the page at `path` (a plugin's link covers the pages below it). */
function isCurrent(link: NavLink, path: string): boolean {
  return link.href.endsWith("/") && link.href !== "/"
    ? `${path}/`.startsWith(link.href)
    : path === link.href;
}

/** The page frame. */
export default define.layout(function Layout({ Component, url, state }) {
  const nav = state.nav ?? [];
  return (
    <>
      <header class="topbar">
        <a class="brand" href={nav[0]?.href ?? "/"}>localbench</a>
        <nav>
          {nav.map((link) => (
            <a
              key={link.href}
              href={link.href}
              aria-current={isCurrent(link, url.pathname) ? "page" : undefined}
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
              <span class="user" data-testid="user">{state.user}</span>
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
