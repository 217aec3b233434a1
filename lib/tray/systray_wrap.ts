/**
 * A systray2 `SysTray` behind the {@linkcode TrayAdapter} interface. systray2 is imported on
 * first use (so `--help` works where it cannot be resolved) and started with a bounded wait for
 * its helper's `ready`.
 *
 * @module
 */
import type { Action, ClickEvent, Conf, Menu, MenuItem } from "systray2";
import { sleep } from "../clock.ts";
import { UnavailableError } from "../error.ts";
import type { TrayAdapter } from "./adapter.ts";
import type { MenuId, MenuModel } from "./menu.ts";
import type { IconColor } from "./status.ts";

/** A started systray2 icon. */
export interface SysTrayInstance extends TrayAdapter {
  /** Process id of the Go helper. */
  readonly pid: number | undefined;
}

/** Options of {@linkcode wrapSystray}. */
export interface WrapOptions {
  /** Folder holding `<version>/<helper>` (systray2's `copyDir`). */
  copyDir: string;
  /** Milliseconds to wait for the helper's `ready`. */
  timeoutMs: number;
  /** Base64 PNG of an icon colour. */
  iconOf(color: IconColor): string;
}

/** The part of systray2's `SysTray` used here. */
interface SysTrayLike {
  readonly process: { readonly pid?: number; kill(signal?: string): boolean } | null;
  ready(): Promise<void>;
  onClick(listener: (event: ClickEvent) => void): Promise<unknown>;
  onExit(listener: () => void): void;
  onError(listener: (err: Error) => void): void;
  sendAction(action: Action): Promise<unknown>;
  kill(exitNode?: boolean): Promise<void>;
}

type SysTrayClass = new (conf: Conf) => SysTrayLike;

async function loadSysTray(): Promise<SysTrayClass> {
  const mod = await import("systray2");
  // CommonJS interop: the class is `default` or `default.default` depending on the loader.
  const outer = (mod.default ?? mod) as unknown as { default?: SysTrayClass };
  return outer.default ?? (outer as unknown as SysTrayClass);
}

const SEPARATOR = "<SEPARATOR>";

/** Starts systray2 with `menu`; rejects with an `AppError` when the helper is not ready in time. */
export async function wrapSystray(menu: MenuModel, opts: WrapOptions): Promise<SysTrayInstance> {
  const Ctor = await loadSysTray();
  const byId = new Map<MenuId, MenuItem>();
  const idOf = new Map<MenuItem, MenuId>();
  const items: MenuItem[] = [];
  for (const entry of menu.items) {
    if (entry.separatorBefore && items.length > 0) {
      items.push({ title: SEPARATOR, tooltip: "", enabled: true });
    }
    const item: MenuItem = { title: entry.title, tooltip: "", enabled: entry.enabled };
    byId.set(entry.id, item);
    idOf.set(item, entry.id);
    items.push(item);
  }
  const menuOf = (m: MenuModel): Menu => ({
    icon: opts.iconOf(m.icon),
    title: "",
    tooltip: m.tooltip,
    items,
  });
  const tray = new Ctor({ menu: menuOf(menu), copyDir: opts.copyDir });
  const ready = tray.ready();
  ready.catch(() => {});
  let cancel = () => {};
  const timeout = new Promise<never>((_, reject) => {
    const id = setTimeout(() => {
      reject(
        new UnavailableError(
          `Cannot show the tray: the tray helper was not ready within ${opts.timeoutMs / 1000} s`,
        ),
      );
    }, opts.timeoutMs);
    cancel = () => clearTimeout(id);
  });
  try {
    await Promise.race([ready, timeout]);
  } catch (err) {
    tray.process?.kill("SIGKILL");
    throw err;
  } finally {
    cancel();
  }
  let exited = false;
  const closed = new Promise<void>((resolve) => {
    tray.onExit(() => {
      exited = true;
      resolve();
    });
  });
  tray.onError(() => {});
  let handler: (id: MenuId) => void = () => {};
  await tray.onClick((event: ClickEvent) => {
    const id = idOf.get(event.item);
    if (id) handler(id);
  });
  return {
    pid: tray.process?.pid,
    closed,
    onClick(fn) {
      handler = fn;
    },
    async render(next) {
      for (const entry of next.items) {
        const item = byId.get(entry.id)!;
        item.title = entry.title;
        item.enabled = entry.enabled;
      }
      await tray.sendAction({ type: "update-menu", menu: menuOf(next) });
      for (const item of byId.values()) await tray.sendAction({ type: "update-item", item });
    },
    async close() {
      if (exited) return;
      await Promise.race([tray.kill(false), sleep(3000)]);
      if (!exited) tray.process?.kill("SIGKILL");
    },
  };
}
