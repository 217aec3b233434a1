/**
 * The boundary between the tray's logic and a real tray icon. The systray2 adapter
 * (`systray.ts`) implements it; tests use an in-memory one.
 *
 * @module
 */
import type { MenuId, MenuModel } from "./menu.ts";

/** A tray icon with its menu, already visible. */
export interface TrayAdapter {
  /** Shows `menu` (icon, tooltip, item titles and enablement). */
  render(menu: MenuModel): Promise<void>;
  /** Registers the handler of menu clicks (one handler; a later call replaces it). */
  onClick(handler: (id: MenuId) => void): void;
  /** Removes the icon and ends the helper; idempotent. */
  close(): Promise<void>;
  /** Settles when the icon went away (closed, or its helper exited by itself). */
  readonly closed: Promise<void>;
}

/** Opens a tray icon showing `menu`; rejects with an `AppError` when no tray can be shown. */
export type TrayFactory = (menu: MenuModel) => Promise<TrayAdapter>;
