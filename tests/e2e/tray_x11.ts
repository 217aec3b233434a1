/**
 * X11 helpers for the tray's end-to-end test: an Xvfb display, a trayer panel, screenshots and
 * the colour of the tray icon read from pixels. Every process is stopped by its PID.
 *
 * @module
 */
import { ICON_RGB, type IconColor } from "../../lib/tray/mod.ts";

const dec = new TextDecoder();

/** True when `name` is on PATH. */
export async function onPath(name: string): Promise<boolean> {
  const out = await new Deno.Command("sh", { args: ["-c", `command -v ${name}`], stdout: "null" })
    .output();
  return out.success;
}

/** Starts a process; its standard output is piped only when `piped` is true. */
export function spawn(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  piped = false,
) {
  const stdout = piped ? "piped" : "null";
  return new Deno.Command(cmd, { args, env, stdin: "null", stdout, stderr: "null" }).spawn();
}

/** Stops a child by PID: SIGTERM, then SIGKILL after 3 s. */
export async function stopChild(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch {
    // already gone
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }, 3000);
  await child.status;
  clearTimeout(timer);
  for (const stream of ["stdout", "stderr"] as const) {
    try {
      await child[stream].cancel();
    } catch {
      // not piped, or already read
    }
  }
}

/** Starts Xvfb on a free display number; resolves to the child and `:N`. */
export async function startXvfb(width: number, height: number) {
  const child = spawn(
    "Xvfb",
    [
      "-displayfd",
      "1",
      "-screen",
      "0",
      `${width}x${height}x24`,
      "-nolisten",
      "tcp",
    ],
    {},
    true,
  );
  const reader = child.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 10_000;
  while (!text.includes("\n") && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value);
  }
  reader.releaseLock();
  const n = text.trim();
  if (!/^\d+$/.test(n)) {
    await stopChild(child);
    throw new Error(`Cannot start Xvfb: no display number (${text})`);
  }
  return { child, display: `:${n}` };
}

/** Grabs the screen as raw RGB. */
export async function grab(display: string, width: number, height: number): Promise<Uint8Array> {
  const out = await new Deno.Command("import", {
    args: ["-window", "root", "-depth", "8", "rgb:-"],
    env: { DISPLAY: display },
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!out.success || out.stdout.length !== width * height * 3) {
    throw new Error(`Cannot take a screenshot (${out.stdout.length} bytes)`);
  }
  return out.stdout;
}

/** Saves a PNG screenshot to `path`. */
export async function screenshot(display: string, path: string): Promise<void> {
  await new Deno.Command("import", { args: ["-window", "root", path], env: { DISPLAY: display } })
    .output();
}

/** The icon colour seen in the top-left `box` of the screen and the centre of its pixels. */
export function iconColor(
  rgb: Uint8Array,
  width: number,
  box = { w: 120, h: 48 },
): { color: IconColor | null; x: number; y: number } {
  let best: { color: IconColor | null; n: number; x: number; y: number } = {
    color: null,
    n: 0,
    x: 0,
    y: 0,
  };
  for (const [color, [r, g, b]] of Object.entries(ICON_RGB) as [IconColor, readonly number[]][]) {
    let n = 0, sx = 0, sy = 0;
    for (let y = 0; y < box.h; y++) {
      for (let x = 0; x < box.w; x++) {
        const i = (y * width + x) * 3;
        if (Math.abs(rgb[i]! - r!) + Math.abs(rgb[i + 1]! - g!) + Math.abs(rgb[i + 2]! - b!) < 24) {
          n++;
          sx += x;
          sy += y;
        }
      }
    }
    if (n > best.n) best = { color, n, x: Math.round(sx / n), y: Math.round(sy / n) };
  }
  return best.n >= 40 ? best : { color: null, x: 0, y: 0 };
}
