/**
 * `deno run --allow-read --allow-write tools/favicon.ts`: writes `static/favicon.ico` from
 * `static/favicon.svg`, so that `/favicon.ico` (asked for by browsers and other clients whatever
 * the page's `<link rel="icon">` says) shows the same icon. The SVG is made of `<rect>` elements
 * only (x, y, width, height, rx, fill); each is drawn with 4×4 supersampling into 16, 32 and 48
 * pixel images, stored as 32-bit bitmaps in one ICO file. `tests/tools/favicon_test.ts` checks
 * that the committed file is what this writes.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { print } from "../lib/log.ts";

/** One filled rectangle of the SVG, in its viewBox units. */
export interface IconRect {
  x: number;
  y: number;
  width: number;
  height: number;
  rx: number;
  rgb: [number, number, number];
}

/** The icon's drawing: its viewBox size and its rectangles, bottom first. */
export interface IconShape {
  size: number;
  rects: IconRect[];
}

/** The image sizes of the ICO file. */
export const ICO_SIZES = [16, 32, 48] as const;

const SVG = fileURLToPath(new URL("../static/favicon.svg", import.meta.url));
const ICO = fileURLToPath(new URL("../static/favicon.ico", import.meta.url));

/**
 * Reads the rectangles of a rect-only SVG.
 *
 * @throws {TypeError} when the SVG has no square viewBox or a rect lacks a size or a #rrggbb fill.
 */
export function parseIconSvg(svg: string): IconShape {
  const box = /viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"/.exec(svg);
  if (!box || box[1] !== box[2]) throw new TypeError("Cannot read the icon: no square viewBox");
  const rects = [...svg.matchAll(/<rect\b([^>]*)\/?>/g)].map((m) => {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(m[1]!)?.[1];
    const num = (name: string) => Number(attr(name) ?? 0);
    const fill = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(attr("fill") ?? "");
    if (!fill || !attr("width") || !attr("height")) {
      throw new TypeError(`Cannot read the icon: a rect needs a size and a #rrggbb fill: ${m[0]}`);
    }
    const rgb = [1, 2, 3].map((i) => parseInt(fill[i]!, 16)) as [number, number, number];
    return {
      x: num("x"),
      y: num("y"),
      width: num("width"),
      height: num("height"),
      rx: num("rx"),
      rgb,
    };
  });
  return { size: Number(box[1]), rects };
}

function inside(r: IconRect, px: number, py: number): boolean {
  if (px < r.x || py < r.y || px > r.x + r.width || py > r.y + r.height) return false;
  if (r.rx <= 0) return true;
  const cx = Math.min(Math.max(px, r.x + r.rx), r.x + r.width - r.rx);
  const cy = Math.min(Math.max(py, r.y + r.rx), r.y + r.height - r.rx);
  return (px - cx) ** 2 + (py - cy) ** 2 <= r.rx ** 2;
}

/** Draws the shape at `size` pixels: RGBA rows, top first. */
export function rasterise(shape: IconShape, size: number): Uint8Array {
  const out = new Uint8Array(size * size * 4);
  const n = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const px = ((x + (sx + 0.5) / n) * shape.size) / size;
          const py = ((y + (sy + 0.5) / n) * shape.size) / size;
          const top = shape.rects.findLast((r) => inside(r, px, py));
          if (!top) continue;
          sum[0]! += top.rgb[0];
          sum[1]! += top.rgb[1];
          sum[2]! += top.rgb[2];
          sum[3]! += 1;
        }
      }
      const i = (y * size + x) * 4;
      const hits = sum[3]!;
      if (hits === 0) continue;
      for (let c = 0; c < 3; c++) out[i + c] = Math.round(sum[c]! / hits);
      out[i + 3] = Math.round((hits / (n * n)) * 255);
    }
  }
  return out;
}

/** One image of the ICO: a BITMAPINFOHEADER, BGRA rows bottom first, an empty AND mask. */
function bitmap(rgba: Uint8Array, size: number): Uint8Array {
  const maskRow = Math.ceil(size / 32) * 4;
  const bytes = new Uint8Array(40 + size * size * 4 + maskRow * size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 40, true);
  view.setInt32(4, size, true);
  view.setInt32(8, size * 2, true); // the colour rows and the mask rows
  view.setUint16(12, 1, true);
  view.setUint16(14, 32, true);
  view.setUint32(20, size * size * 4 + maskRow * size, true);
  let o = 40;
  for (let y = size - 1; y >= 0; y--) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      bytes.set([rgba[i + 2]!, rgba[i + 1]!, rgba[i]!, rgba[i + 3]!], o);
      o += 4;
    }
  }
  return bytes;
}

/** The ICO file of the shape at every {@linkcode ICO_SIZES} size. */
export function encodeIco(shape: IconShape): Uint8Array {
  const images = ICO_SIZES.map((size) => bitmap(rasterise(shape, size), size));
  const head = 6 + 16 * images.length;
  const total = head + images.reduce((n, b) => n + b.length, 0);
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, images.length, true);
  let offset = head;
  images.forEach((img, k) => {
    const e = 6 + 16 * k;
    const size = ICO_SIZES[k]!;
    view.setUint8(e, size);
    view.setUint8(e + 1, size);
    view.setUint16(e + 4, 1, true);
    view.setUint16(e + 6, 32, true);
    view.setUint32(e + 8, img.length, true);
    view.setUint32(e + 12, offset, true);
    bytes.set(img, offset);
    offset += img.length;
  });
  return bytes;
}

/** The ICO bytes of `static/favicon.svg`. */
export async function faviconIco(): Promise<Uint8Array> {
  return encodeIco(parseIconSvg(await Deno.readTextFile(SVG)));
}

if (import.meta.main) {
  await Deno.writeFile(ICO, await faviconIco());
  print(`wrote ${ICO}`);
}
