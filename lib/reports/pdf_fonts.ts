/**
 * The report fonts as the PDF opens them: DejaVu Sans without its OpenType layout tables
 * (`GSUB`, `GPOS`). fontkit builds a shaping engine from them for every run of text pdfkit lays
 * out; without them the reports of 2 variants take 0.05–0.1 s less CPU (of about 0.65 s). Latin
 * text needs no substitution, and the fonts keep their legacy `kern` table, which fontkit applies
 * when there is no `GPOS`: the pages render as before (scripts that need shaping, such as Arabic,
 * would show unjoined letters).
 *
 * Their `post` table is also cut to its header (version 3: no glyph names). pdfkit reads only
 * the header (italic angle, fixed pitch), but fontkit decodes the whole table first: 6,000
 * glyph names, 40–150 ms of CPU per font, twice per report (regular and bold). The embedded
 * subsets never carried a `post` table, so the PDF is the same.
 *
 * @module
 */
import { findFonts } from "./assets.ts";

/** Tables left out of the fonts the PDF embeds. */
const LAYOUT_TABLES = new Set(["GSUB", "GPOS"]);

/**
 * A TrueType font without the tables in `drop`: its table directory rewritten (the table data
 * stays where it is, so the offsets hold).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutTables } from "./pdf_fonts.ts";
 * // A directory of two empty tables, "AAAA" and "GSUB".
 * const font = new Uint8Array(12 + 32);
 * const view = new DataView(font.buffer);
 * view.setUint16(4, 2);
 * font.set(new TextEncoder().encode("AAAA"), 12);
 * font.set(new TextEncoder().encode("GSUB"), 28);
 * const out = withoutTables(font, new Set(["GSUB"]));
 * assert.equal(new DataView(out.buffer).getUint16(4), 1);
 * assert.equal(new TextDecoder().decode(out.subarray(12, 16)), "AAAA");
 * ```
 */
export function withoutTables(font: Uint8Array, drop: ReadonlySet<string>): Uint8Array {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const count = view.getUint16(4);
  const entries: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const entry = font.subarray(12 + 16 * i, 28 + 16 * i);
    if (!drop.has(String.fromCharCode(...entry.subarray(0, 4)))) entries.push(entry);
  }
  const out = font.slice();
  const outView = new DataView(out.buffer);
  // numTables, then searchRange, entrySelector and rangeShift for the new count.
  const power = 2 ** Math.floor(Math.log2(Math.max(1, entries.length)));
  outView.setUint16(4, entries.length);
  outView.setUint16(6, power * 16);
  outView.setUint16(8, Math.log2(power));
  outView.setUint16(10, entries.length * 16 - power * 16);
  entries.forEach((e, i) => out.set(e, 12 + 16 * i));
  out.fill(0, 12 + 16 * entries.length, 12 + 16 * count);
  return out;
}

/**
 * A TrueType font whose `post` table is its 32-byte header alone, as version 3.0 (no glyph
 * names); the font itself when it has no `post` table or one already without names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutGlyphNames } from "./pdf_fonts.ts";
 * // One table, "post" version 2.0 at offset 28, 40 bytes long.
 * const font = new Uint8Array(28 + 40);
 * const view = new DataView(font.buffer);
 * view.setUint16(4, 1);
 * font.set(new TextEncoder().encode("post"), 12);
 * view.setUint32(20, 28);
 * view.setUint32(24, 40);
 * view.setUint32(28, 0x00020000);
 * const out = new DataView(withoutGlyphNames(font).buffer);
 * assert.equal(out.getUint32(28), 0x00030000);
 * assert.equal(out.getUint32(24), 32);
 * ```
 */
export function withoutGlyphNames(font: Uint8Array): Uint8Array {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  for (let i = 0; i < view.getUint16(4); i++) {
    const entry = 12 + 16 * i;
    if (String.fromCharCode(...font.subarray(entry, entry + 4)) !== "post") continue;
    const offset = view.getUint32(entry + 8);
    if (view.getUint32(entry + 12) < 32 || view.getUint32(offset) === 0x00030000) return font;
    const out = font.slice();
    const outView = new DataView(out.buffer);
    outView.setUint32(offset, 0x00030000);
    outView.setUint32(entry + 12, 32);
    return out;
  }
  return font;
}

let cached: { regular: Uint8Array; bold: Uint8Array } | null = null;

/**
 * The regular and bold report fonts, read once per process, without their layout tables and
 * glyph names.
 */
export function pdfFonts(): { regular: Uint8Array; bold: Uint8Array } {
  if (cached) return cached;
  const files = findFonts();
  cached = {
    regular: withoutGlyphNames(withoutTables(Deno.readFileSync(files.regular), LAYOUT_TABLES)),
    bold: withoutGlyphNames(withoutTables(Deno.readFileSync(files.bold), LAYOUT_TABLES)),
  };
  return cached;
}
