/**
 * The four tray icons: a filled disc in the state's colour on a transparent background, drawn
 * in code and handed to the tray helper as base64 PNG.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { encodePng } from "./png.ts";
import type { IconColor } from "./status.ts";

/** RGB of each icon colour (distinct enough to be told apart in a screenshot). */
export const ICON_RGB: Record<IconColor, readonly [number, number, number]> = {
  gray: [0x9e, 0x9e, 0x9e],
  green: [0x2e, 0xcc, 0x40],
  yellow: [0xf5, 0xc5, 0x18],
  red: [0xe5, 0x39, 0x35],
};

/** Side of the icons in pixels. */
export const ICON_SIZE = 32;

/** The icon of `color` as a PNG file. */
export function iconPng(color: IconColor, size = ICON_SIZE): Uint8Array {
  const [r, g, b] = ICON_RGB[color];
  const rgba = new Uint8Array(size * size * 4);
  const c = (size - 1) / 2;
  const radius = size / 2 - 1.5;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c);
      const alpha = Math.max(0, Math.min(1, radius + 0.5 - d));
      rgba.set([r, g, b, Math.round(alpha * 255)], (y * size + x) * 4);
    }
  }
  return encodePng(size, size, rgba);
}

const cache = new Map<IconColor, string>();

/** The icon of `color` as base64 PNG (what systray2 accepts as `icon`). */
export function iconBase64(color: IconColor): string {
  let text = cache.get(color);
  if (text === undefined) {
    text = Buffer.from(iconPng(color)).toString("base64");
    cache.set(color, text);
  }
  return text;
}
