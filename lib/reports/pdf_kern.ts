/**
 * The report fonts' `kern` table, read here for fontkit. pdfkit lays out text with fontkit, which
 * kerns with the font's legacy `kern` table (the fonts carry no `GPOS`, pdf_fonts.ts) and decodes
 * it on first use with its generic structure reader: 2,727 pairs of DejaVu Sans took ~10 ms of CPU
 * per font and report. This reader gives fontkit the same table (the fields its kerning reads,
 * with the values it would decode) from a plain loop over the bytes, for the layout fontkit reads
 * itself: version 0 with format-0 subtables (sorted pairs); any other table is left to fontkit.
 *
 * @module
 */

/** A format-0 kerning pair as fontkit decodes it. */
export interface KernPair {
  left: number;
  right: number;
  value: number;
}

/** One version-0 subtable as fontkit decodes it (the fields its kerning reads). */
export interface KernSubtable {
  version: 0;
  subVersion: number;
  length: number;
  format: 0;
  coverage: { horizontal: boolean; minimum: boolean; crossStream: boolean; override: boolean };
  subtable: {
    nPairs: number;
    searchRange: number;
    entrySelector: number;
    rangeShift: number;
    pairs: KernPair[];
  };
}

/** The `kern` table (version 0) as fontkit decodes it. */
export interface KernTable {
  version: 0;
  nTables: number;
  tables: KernSubtable[];
}

/**
 * The `kern` table of a TrueType font, or null when it has none or one this reader leaves to
 * fontkit (not version 0, or a subtable not version 0 format 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kernTable } from "./pdf_kern.ts";
 * // A font of one table, "kern" at offset 28: one horizontal subtable of one pair (3, 7) → -40.
 * const font = new Uint8Array(28 + 4 + 14 + 6);
 * const v = new DataView(font.buffer);
 * v.setUint16(4, 1);
 * font.set(new TextEncoder().encode("kern"), 12);
 * v.setUint32(20, 28);
 * v.setUint32(24, 24);
 * v.setUint16(30, 1); // nTables
 * v.setUint16(34, 20); // subtable length
 * v.setUint8(37, 1); // coverage: horizontal
 * v.setUint16(38, 1); // nPairs
 * v.setUint16(46, 3);
 * v.setUint16(48, 7);
 * v.setInt16(50, -40);
 * const kern = kernTable(font)!;
 * assert.deepEqual(kern.tables[0]!.subtable.pairs, [{ left: 3, right: 7, value: -40 }]);
 * assert.equal(kern.tables[0]!.coverage.horizontal, true);
 * ```
 */
export function kernTable(font: Uint8Array): KernTable | null {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  let at = -1;
  let end = 0;
  for (let i = 0; i < view.getUint16(4); i++) {
    const entry = 12 + 16 * i;
    if (String.fromCharCode(...font.subarray(entry, entry + 4)) !== "kern") continue;
    at = view.getUint32(entry + 8);
    end = at + view.getUint32(entry + 12);
  }
  if (at < 0 || end > font.byteLength || view.getUint16(at) !== 0) return null;
  const nTables = view.getUint16(at + 2);
  const tables: KernSubtable[] = [];
  let p = at + 4;
  for (let t = 0; t < nTables; t++) {
    const [subVersion, length, format, bits] = [
      view.getUint16(p),
      view.getUint16(p + 2),
      view.getUint8(p + 4),
      view.getUint8(p + 5),
    ];
    if (subVersion !== 0 || format !== 0 || p + length > end) return null;
    const nPairs = view.getUint16(p + 6);
    if (p + 14 + 6 * nPairs > end) return null;
    const pairs: KernPair[] = new Array(nPairs);
    for (let i = 0, q = p + 14; i < nPairs; i++, q += 6) {
      pairs[i] = {
        left: view.getUint16(q),
        right: view.getUint16(q + 2),
        value: view.getInt16(q + 4),
      };
    }
    tables.push({
      version: 0,
      subVersion,
      length,
      format: 0,
      coverage: {
        horizontal: (bits & 1) !== 0,
        minimum: (bits & 2) !== 0,
        crossStream: (bits & 4) !== 0,
        override: (bits & 8) !== 0,
      },
      subtable: {
        nPairs,
        searchRange: view.getUint16(p + 8),
        entrySelector: view.getUint16(p + 10),
        rangeShift: view.getUint16(p + 12),
        pairs,
      },
    });
    p += length;
  }
  return { version: 0, nTables, tables };
}

/**
 * Gives the font pdfkit has open in `doc` (`doc._font.font`, fontkit's) the `kern` table read
 * from `bytes`, before fontkit decodes it; nothing when pdfkit or fontkit keep their fonts
 * otherwise or the table is one fontkit reads itself.
 */
export function preloadKern(doc: unknown, bytes: Uint8Array): void {
  const font = (doc as { _font?: { font?: { _tables?: Record<string, unknown> } } })._font?.font;
  const tables = font?._tables;
  if (!tables || "kern" in tables) return;
  const kern = kernTable(bytes);
  if (kern) tables.kern = kern;
}
