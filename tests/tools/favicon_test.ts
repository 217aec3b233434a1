import assert from "node:assert/strict";
import { encodeIco, faviconIco, ICO_SIZES, parseIconSvg, rasterise } from "../../tools/favicon.ts";

Deno.test("static/favicon.ico is what tools/favicon.ts draws from static/favicon.svg", async () => {
  const committed = await Deno.readFile(new URL("../../static/favicon.ico", import.meta.url));
  assert.deepEqual(committed, await faviconIco(), "run tools/favicon.ts after changing the SVG");
});

Deno.test("the ICO file lists one 32-bit image per size, each where its entry says", () => {
  const ico = encodeIco(parseIconSvg(
    '<svg viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f2a44" /></svg>',
  ));
  const view = new DataView(ico.buffer);
  assert.deepEqual([view.getUint16(0, true), view.getUint16(2, true)], [0, 1]);
  assert.equal(view.getUint16(4, true), ICO_SIZES.length);
  ICO_SIZES.forEach((size, k) => {
    const e = 6 + 16 * k;
    assert.equal(view.getUint8(e), size);
    assert.equal(view.getUint16(e + 6, true), 32, "bits per pixel");
    const offset = view.getUint32(e + 12, true);
    assert.equal(view.getUint32(offset, true), 40, "a BITMAPINFOHEADER");
    assert.equal(view.getInt32(offset + 8, true), size * 2, "colour and mask rows");
    assert.ok(offset + view.getUint32(e + 8, true) <= ico.length);
  });
});

Deno.test("rasterise() fills rectangles and leaves rounded corners transparent", () => {
  const shape = parseIconSvg(
    '<svg viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#102030" />' +
      '<rect x="16" y="0" width="16" height="32" fill="#ff0000" /></svg>',
  );
  const px = rasterise(shape, 32);
  const at = (x: number, y: number) => [...px.subarray((y * 32 + x) * 4, (y * 32 + x) * 4 + 4)];
  assert.deepEqual(at(0, 0), [0, 0, 0, 0], "outside the rounded corner");
  assert.deepEqual(at(8, 16), [0x10, 0x20, 0x30, 255]);
  assert.deepEqual(at(24, 16), [255, 0, 0, 255], "the later rect is on top");
  assert.throws(() => parseIconSvg('<svg viewBox="0 0 32 16"></svg>'), /square viewBox/);
  assert.throws(
    () => parseIconSvg('<svg viewBox="0 0 8 8"><rect width="8" height="8" fill="red" /></svg>'),
    /#rrggbb fill/,
  );
});
