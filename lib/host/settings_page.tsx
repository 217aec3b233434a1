/**
 * What the plugins' settings pages (`plugins/<id>/routes/settings.tsx`, at
 * `/plugins/<id>/settings`) share on the server: the props of a plugin's settings island (its
 * settings without secrets, which secrets are set, whether the user may change them) and the
 * frame around it (the heading and a tab per hosted plugin's settings screen).
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import type { FwContext } from "../http/mod.ts";
import type { SettingsProps } from "../shared/settings/mod.ts";
import type { NavLink } from "../web/state.ts";
import type { HostPageState } from "./pages.ts";
import { hasPermission } from "./permissions.ts";

/**
 * The props of plugin `id`'s settings island for the signed-in request `c`.
 *
 * @example
 * ```ts ignore
 * export const handler = define.handlers({ GET: (c) => page(settingsProps(c, "temp_eta")) });
 * ```
 */
export function settingsProps<S extends HostPageState>(c: FwContext<S>, id: string): SettingsProps {
  const host = c.var.host;
  return {
    csrfToken: c.var.csrfToken,
    canEdit: hasPermission(c.var.principal.permissions, "SETTINGS") && c.var.csrfToken !== "",
    values: host.settings.publicView()[id] ?? {},
    secrets: host.settings.secretsView()[id] ?? {},
  };
}

/** Props of {@linkcode SettingsFrame}. */
export interface SettingsFrameProps {
  /** The page's heading. */
  title: string;
  /** Every hosted plugin's settings screen (the page state's `settingsNav`). */
  tabs: NavLink[];
  /** The current page's path. */
  path: string;
  children: ComponentChildren;
}

/** A settings page: the heading, a tab per plugin's settings screen, then the form. */
export function SettingsFrame({ title, tabs, path, children }: SettingsFrameProps) {
  return (
    <div class="settings-page">
      <h1>{title}</h1>
      <nav class="tabs" aria-label="Settings of the plugins">
        {tabs.map((tab) => (
          <a key={tab.href} href={tab.href} aria-current={tab.href === path ? "page" : undefined}>
            {tab.label}
          </a>
        ))}
      </nav>
      {children}
    </div>
  );
}
