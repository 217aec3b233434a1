import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";
import { ICON_RGB, ICON_SIZE, iconBase64, iconPng } from "../../../lib/tray/mod.ts";
import { crc32 } from "../../../lib/tray/png.ts";

Deno.test("crc32() matches the reference value of '123456789'", () => {
  assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
});

Deno.test("iconPng() draws an opaque disc of the colour on a transparent square", () => {
  for (const color of ["gray", "green", "yellow", "red"] as const) {
    const png = iconPng(color);
    const view = new DataView(png.buffer);
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    assert.equal(view.getUint32(16), ICON_SIZE);
    assert.equal(view.getUint32(20), ICON_SIZE);
    const idatLength = view.getUint32(33);
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    const stride = ICON_SIZE * 4 + 1;
    const at = (
      x: number,
      y: number,
    ) => [...raw.subarray(y * stride + 1 + x * 4, y * stride + 5 + x * 4)];
    const mid = ICON_SIZE / 2;
    assert.deepEqual(at(mid, mid), [...ICON_RGB[color], 255]);
    assert.equal(at(0, 0)[3], 0);
  }
  assert.ok(atob(iconBase64("red")).startsWith("\x89PNG"));
});
