import assert from "node:assert/strict";
import { findFonts } from "../../../lib/reports/assets.ts";
import { pdfFonts, withoutGlyphNames, withoutTables } from "../../../lib/reports/pdf_fonts.ts";

/** The table tags of a TrueType font's directory. */
function tags(font: Uint8Array): string[] {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  return Array.from(
    { length: view.getUint16(4) },
    (_, i) => new TextDecoder().decode(font.subarray(12 + 16 * i, 16 + 16 * i)),
  );
}

Deno.test("the PDF's fonts lose their OpenType layout tables and keep their kerning and glyphs", () => {
  const { regular, bold } = pdfFonts();
  for (const font of [regular, bold]) {
    const kept = tags(font);
    assert.ok(!kept.includes("GSUB") && !kept.includes("GPOS"), kept.join(" "));
    for (const t of ["kern", "cmap", "glyf", "loca", "hmtx"]) assert.ok(kept.includes(t), t);
  }
  assert.equal(pdfFonts(), pdfFonts(), "read once per process");
});

Deno.test("dropping tables rewrites the directory's binary-search fields for the new count", () => {
  const names = ["AAAA", "GPOS", "GSUB", "cmap", "kern"];
  const font = new Uint8Array(12 + 16 * names.length);
  new DataView(font.buffer).setUint16(4, names.length);
  names.forEach((n, i) => font.set(new TextEncoder().encode(n), 12 + 16 * i));
  const out = withoutTables(font, new Set(["GSUB", "GPOS"]));
  const view = new DataView(out.buffer);
  assert.deepEqual(tags(out), ["AAAA", "cmap", "kern"]);
  // 3 tables: searchRange 2 × 16, entrySelector 1, rangeShift 3 × 16 − 32.
  assert.deepEqual([view.getUint16(6), view.getUint16(8), view.getUint16(10)], [32, 1, 16]);
  assert.equal(out.length, font.length, "the table data stays where its offsets say");
});

/** The `post` table's version, its length in the directory and its italic angle. */
function post(font: Uint8Array): { version: number; length: number; italic: number } {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const i = tags(font).indexOf("post");
  const offset = view.getUint32(12 + 16 * i + 8);
  return {
    version: view.getUint32(offset),
    length: view.getUint32(12 + 16 * i + 12),
    italic: view.getInt32(offset + 4),
  };
}

Deno.test("the PDF's fonts keep only the header of their post table: no glyph names to decode", () => {
  const { regular, bold } = pdfFonts();
  const original = findFonts();
  for (const [font, file] of [[regular, original.regular], [bold, original.bold]] as const) {
    const before = post(Deno.readFileSync(file));
    assert.equal(before.version, 0x00020000, "DejaVu names its glyphs (post 2.0)");
    const after = post(font);
    assert.deepEqual(after, { version: 0x00030000, length: 32, italic: before.italic });
  }
  const once = withoutGlyphNames(regular);
  assert.equal(once, regular, "a font without names is returned as it is");
});
