import assert from "node:assert/strict";
import { kernTable, preloadKern } from "../../../lib/reports/pdf_kern.ts";
import { pdfFonts } from "../../../lib/reports/pdf_fonts.ts";
import { loadPdfkit } from "../../../lib/reports/pdfkit.ts";

interface FontkitFont {
  kern: unknown;
  _tables: Record<string, unknown>;
  layout(text: string): { glyphs: { id: number }[]; positions: { xAdvance: number }[] };
}

/** A pdfkit document with `bytes` open as its font, and that font's fontkit object. */
async function openFont(bytes: Uint8Array, preload: boolean): Promise<FontkitFont> {
  const { PDFDocument } = await loadPdfkit();
  const doc = new PDFDocument({ font: null }) as {
    registerFont(n: string, b: Uint8Array): void;
    font(n: string): unknown;
    _font: { font: FontkitFont };
  };
  doc.registerFont("F", bytes);
  const opened = doc.font("F");
  if (preload) preloadKern(opened, bytes);
  return doc._font.font;
}

/** What fontkit's kerning reads of a `kern` table. */
function kerning(table: unknown) {
  const t = table as {
    version: number;
    nTables: number;
    tables: {
      version: number;
      format: number;
      coverage: Record<string, boolean>;
      subtable: { nPairs: number; pairs: { left: number; right: number; value: number }[] };
    }[];
  };
  return {
    version: t.version,
    nTables: t.nTables,
    tables: t.tables.map((s) => ({
      version: s.version,
      format: s.format,
      coverage: {
        horizontal: s.coverage.horizontal,
        minimum: s.coverage.minimum,
        crossStream: s.coverage.crossStream,
        override: s.coverage.override,
      },
      nPairs: s.subtable.nPairs,
      pairs: s.subtable.pairs.map((p) => [p.left, p.right, p.value]),
    })),
  };
}

Deno.test("the report fonts' kerning pairs read here are the ones fontkit decodes", async () => {
  for (const bytes of Object.values(pdfFonts())) {
    const ours = kernTable(bytes);
    assert.ok(ours && ours.tables[0]!.subtable.pairs.length > 1000, "DejaVu Sans kerns");
    const fontkit = (await openFont(bytes, false)).kern;
    assert.deepEqual(kerning(ours), kerning(fontkit));
  }
});

Deno.test("text is kerned the same with the pairs preloaded, which fontkit then does not decode", async () => {
  const text = "AVATAR To Wa Yo, P. LT. “quoted” 1,234.5 tok/s — Fy kv";
  for (const bytes of Object.values(pdfFonts())) {
    const plain = await openFont(bytes, false);
    const preloaded = await openFont(bytes, true);
    assert.ok("kern" in preloaded._tables && !("kern" in plain._tables));
    const [a, b] = [plain.layout(text), preloaded.layout(text)];
    assert.deepEqual(b.glyphs.map((g) => g.id), a.glyphs.map((g) => g.id));
    assert.deepEqual(b.positions.map((p) => p.xAdvance), a.positions.map((p) => p.xAdvance));
    assert.ok(
      a.positions.some((p, i) =>
        p.xAdvance !== (a.glyphs[i] as unknown as { advanceWidth: number }).advanceWidth
      ),
      "some pair is kerned",
    );
  }
});

Deno.test("a kern table this reader does not know is left to fontkit", () => {
  const font = new Uint8Array(28 + 8);
  const view = new DataView(font.buffer);
  view.setUint16(4, 1);
  font.set(new TextEncoder().encode("kern"), 12);
  view.setUint32(20, 28);
  view.setUint32(24, 8);
  view.setUint16(28, 1); // version 1 (Apple's)
  assert.equal(kernTable(font), null);
  assert.equal(kernTable(new Uint8Array(12)), null, "no kern table");
  const tables: Record<string, unknown> = {};
  preloadKern({ _font: { font: { _tables: tables } } }, font);
  assert.deepEqual(tables, {});
});
