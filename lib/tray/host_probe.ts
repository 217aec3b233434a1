/**
 * Is there somewhere to put a tray icon? Looks for a display and a tray host: an X11 system tray
 * (the owner of the `_NET_SYSTEM_TRAY_S<screen>` selection, read through libX11) or a
 * StatusNotifierWatcher on the session D-Bus (asked with `dbus-send`).
 *
 * @module
 */

/** Outcome of a probe; `unknown` means the probe could not tell (the tray is tried anyway). */
export type HostProbeResult = "ok" | "no-display" | "no-host" | "unknown";

/** A probe of the desktop. */
export type HostProbe = () => Promise<HostProbeResult>;

type X11 = Deno.DynamicLibrary<{
  XOpenDisplay: { parameters: ["buffer"]; result: "pointer" };
  XDefaultScreen: { parameters: ["pointer"]; result: "i32" };
  XInternAtom: { parameters: ["pointer", "buffer", "i32"]; result: "u64" };
  XGetSelectionOwner: { parameters: ["pointer", "u64"]; result: "u64" };
  XCloseDisplay: { parameters: ["pointer"]; result: "i32" };
}>;

function cstr(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text + "\0");
}

/** Whether an X11 tray owns the selection on `display`; `null` when libX11 is unavailable. */
export function x11TrayOwned(display: string): "ok" | "no-display" | "no-host" | null {
  let lib: X11;
  try {
    lib = Deno.dlopen("libX11.so.6", {
      XOpenDisplay: { parameters: ["buffer"], result: "pointer" },
      XDefaultScreen: { parameters: ["pointer"], result: "i32" },
      XInternAtom: { parameters: ["pointer", "buffer", "i32"], result: "u64" },
      XGetSelectionOwner: { parameters: ["pointer", "u64"], result: "u64" },
      XCloseDisplay: { parameters: ["pointer"], result: "i32" },
    });
  } catch {
    return null;
  }
  try {
    const dpy = lib.symbols.XOpenDisplay(cstr(display));
    if (dpy === null) return "no-display";
    try {
      const screen = lib.symbols.XDefaultScreen(dpy);
      const atom = lib.symbols.XInternAtom(dpy, cstr(`_NET_SYSTEM_TRAY_S${screen}`), 0);
      return lib.symbols.XGetSelectionOwner(dpy, atom) !== 0n ? "ok" : "no-host";
    } finally {
      lib.symbols.XCloseDisplay(dpy);
    }
  } finally {
    lib.close();
  }
}

/** Whether a StatusNotifierWatcher is on the session bus; `null` when that cannot be asked. */
export async function statusNotifierOwned(
  env: (name: string) => string | undefined,
): Promise<boolean | null> {
  if (!env("DBUS_SESSION_BUS_ADDRESS")) return null;
  try {
    const out = await new Deno.Command("dbus-send", {
      args: [
        "--session",
        "--print-reply",
        "--reply-timeout=1000",
        "--dest=org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus.NameHasOwner",
        "string:org.kde.StatusNotifierWatcher",
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(2000),
    }).output();
    return out.success ? /boolean true/.test(new TextDecoder().decode(out.stdout)) : null;
  } catch {
    return null;
  }
}

/** The probe of this machine: no `DISPLAY`/`WAYLAND_DISPLAY` → `no-display`. */
export function systemHostProbe(
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): HostProbe {
  return async () => {
    const display = env("DISPLAY");
    if (!display && !env("WAYLAND_DISPLAY")) return "no-display";
    if (await statusNotifierOwned(env)) return "ok";
    if (!display) return "unknown";
    return x11TrayOwned(display) ?? "unknown";
  };
}
