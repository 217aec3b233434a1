import type { ComponentChildren } from "preact";
import { island } from "../../lib/http/islands.ts";
import UptimeWidget from "../../islands/UptimeWidget.tsx";

/** Props of {@linkcode Layout}. */
export interface LayoutProps {
  title: string;
  user?: string;
  children: ComponentChildren;
}

/** The plugin host's page frame: navbar with links, the user and the uptime widget. */
export function Layout({ title, user, children }: LayoutProps) {
  return (
    <>
      <nav class="navbar">
        <strong>localbench host</strong>
        <a href="/plugins/logs">Logs</a>
        <span class="spacer" />
        {user ? island({ name: "UptimeWidget", component: UptimeWidget, props: {} }) : null}
        {user ? <span class="user">{user}</span> : null}
      </nav>
      <main>
        <h1>{title}</h1>
        {children}
      </main>
    </>
  );
}
