/**
 * The tray menu as plain data, derived from a {@linkcode TrayView}. Adapters render it; clicks
 * come back as item ids.
 *
 * @module
 */
import type { IconColor, TrayView } from "./status.ts";

/** Ids of the menu items that do something. */
export type MenuAction = "start" | "pause" | "stop" | "open" | "quit";

/** Ids of every menu item, in menu order (`status` is the disabled status line). */
export const MENU_IDS = ["status", "start", "pause", "stop", "open", "quit"] as const;

/** Id of a menu item. */
export type MenuId = typeof MENU_IDS[number];

/** One menu item. */
export interface MenuEntry {
  id: MenuId;
  title: string;
  enabled: boolean;
  /** A separator is drawn above this item. */
  separatorBefore?: boolean;
}

/** The whole menu: icon colour, tooltip and items. */
export interface MenuModel {
  icon: IconColor;
  tooltip: string;
  items: MenuEntry[];
}

/**
 * The menu for a view: status line, Start, Pause/Resume, Stop, Open dashboard, Quit. Open
 * dashboard and Quit are always enabled.
 *
 * @example Paused
 * ```ts
 * import assert from "node:assert/strict";
 * import { menuOf } from "./menu.ts";
 * import { viewOf } from "./status.ts";
 * const pause = menuOf(viewOf("paused")).items.find((i) => i.id === "pause")!;
 * assert.ok(pause.title === "Resume" && pause.enabled);
 * ```
 */
export function menuOf(view: TrayView): MenuModel {
  const label = view.state === "error" ? "Status: unreachable" : `Status: ${view.state}`;
  return {
    icon: view.icon,
    tooltip: view.tooltip,
    items: [
      { id: "status", title: label, enabled: false },
      { id: "start", title: "Start", enabled: view.start, separatorBefore: true },
      { id: "pause", title: view.pauseLabel, enabled: view.pause },
      { id: "stop", title: "Stop", enabled: view.stop },
      { id: "open", title: "Open dashboard", enabled: true, separatorBefore: true },
      { id: "quit", title: "Quit", enabled: true },
    ],
  };
}

/** True when `id` names an item that does something (not the status line). */
export function isAction(id: string): id is MenuAction {
  return id === "start" || id === "pause" || id === "stop" || id === "open" || id === "quit";
}
