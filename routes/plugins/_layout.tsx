import type { ComponentChildren } from "preact";
import UptimeWidget from "../../islands/UptimeWidget.tsx";
import TempEtaNavbar from "../../islands/TempEtaNavbar.tsx";

/** Props of {@linkcode Layout}. */
export interface LayoutProps {
  title: string;
  user?: string;
  children: ComponentChildren;
}

/** The plugin host's page frame: navbar with links, the user, the temperature ETA element and the uptime widget. */
export function Layout({ title, user, children }: LayoutProps) {
  return (
    <>
      <nav class="navbar">
        <strong>localbench host</strong>
        <a href="/plugins/logs">Logs</a>
        <a href="/plugins/power">Power</a>
        <a href="/plugins/temperature">Temperature</a>
        <span class="spacer" />
        {user ? <TempEtaNavbar /> : null}
        {user ? <UptimeWidget /> : null}
        {user ? <span class="user">{user}</span> : null}
      </nav>
      <main>
        <h1>{title}</h1>
        {children}
      </main>
    </>
  );
}
