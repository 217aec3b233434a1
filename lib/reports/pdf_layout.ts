/**
 * A thin layer over pdfkit for the PDF report: A4 landscape pages with the embedded DejaVu fonts,
 * headings, paragraphs, bullet lists, key/value lists and tables that break across pages with
 * their header repeated, and a footer with page numbers.
 *
 * @module
 */
import { pdfFonts } from "./pdf_fonts.ts";
import { preloadKern } from "./pdf_kern.ts";
import type { PdfDocumentClass } from "./pdfkit.ts";

/** The part of pdfkit's document the report uses. */
export interface PdfDoc {
  page: {
    width: number;
    height: number;
    margins: { left: number; right: number; top: number; bottom: number };
  };
  x: number;
  y: number;
  registerFont(name: string, src: string | Uint8Array): PdfDoc;
  font(name: string): PdfDoc;
  fontSize(size: number): PdfDoc;
  fillColor(color: string): PdfDoc;
  text(text: string, x?: number, y?: number, options?: Record<string, unknown>): PdfDoc;
  heightOfString(text: string, options?: Record<string, unknown>): number;
  widthOfString(text: string, options?: Record<string, unknown>): number;
  rect(x: number, y: number, w: number, h: number): PdfDoc;
  circle(x: number, y: number, r: number): PdfDoc;
  moveTo(x: number, y: number): PdfDoc;
  lineTo(x: number, y: number): PdfDoc;
  lineWidth(w: number): PdfDoc;
  strokeColor(color: string): PdfDoc;
  stroke(): PdfDoc;
  fill(color?: string): PdfDoc;
  save(): PdfDoc;
  restore(): PdfDoc;
  rotate(angle: number, options?: { origin?: [number, number] }): PdfDoc;
  addPage(): PdfDoc;
  switchToPage(n: number): PdfDoc;
  bufferedPageRange(): { start: number; count: number };
  on(event: string, listener: (chunk?: Uint8Array) => void): void;
  end(): void;
}

/** One table column. */
export interface PdfColumn<T> {
  head: string;
  width: number;
  align?: "left" | "right";
  /** Cells in the bold font. @default false */
  bold?: boolean;
  value: (row: T) => string;
}

const INK = "#1f2937";
const MUTED = "#6b7280";

/** Writes the report's blocks one after the other, adding pages as needed. */
export class PdfWriter {
  readonly doc: PdfDoc;
  #chunks: Uint8Array[] = [];
  #done: Promise<Uint8Array>;

  /** A document of pdfkit's `PDFDocument` (pdfkit.ts `loadPdfkit`). */
  constructor(PDFDocument: PdfDocumentClass, info: { title: string }) {
    const fonts = pdfFonts();
    const Doc = PDFDocument as new (o: Record<string, unknown>) => PdfDoc;
    this.doc = new Doc({
      size: "A4",
      layout: "landscape",
      margin: 36,
      bufferPages: true,
      // No default font: pdfkit caches a font under the name it was first opened with, and it
      // would reopen and parse the TrueType file at every font("Body") had the same file been
      // opened first by path (1 s of a 2-variant report).
      font: null,
      info: { Title: info.title, Producer: "localbench", Creator: "localbench" },
    });
    this.doc.registerFont("Body", fonts.regular);
    this.doc.registerFont("Bold", fonts.bold);
    // Both opened here, in the order of their first use (their PDF names F1, F2 stay), each with
    // its kerning pairs read by pdf_kern.ts rather than decoded by fontkit.
    preloadKern(this.doc.font("Body"), fonts.regular);
    preloadKern(this.doc.font("Bold"), fonts.bold);
    this.doc.font("Body").fillColor(INK);
    this.#done = new Promise((resolve) => {
      this.doc.on("data", (c) => this.#chunks.push(c!));
      this.doc.on("end", () => {
        const out = new Uint8Array(this.#chunks.reduce((n, c) => n + c.length, 0));
        let at = 0;
        for (const c of this.#chunks) {
          out.set(c, at);
          at += c.length;
        }
        resolve(out);
      });
    });
  }

  /** Usable width of a page. */
  get width(): number {
    const p = this.doc.page;
    return p.width - p.margins.left - p.margins.right;
  }

  get #left(): number {
    return this.doc.page.margins.left;
  }

  get #bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom - 14;
  }

  /** Starts a new page when less than `height` points are left. */
  ensure(height: number): void {
    if (this.doc.y + height > this.#bottom) this.doc.addPage();
  }

  /** Starts a new page. */
  newPage(): void {
    this.doc.addPage();
  }

  /** The report title and a muted subtitle. */
  title(text: string, subtitle: string): void {
    this.doc.font("Bold").fontSize(22).fillColor(INK).text(text, this.#left, this.doc.y);
    this.doc.font("Body").fontSize(10).fillColor(MUTED).text(subtitle);
    this.doc.fillColor(INK);
    this.doc.y += 6;
  }

  /**
   * A section heading, kept on a page with at least `keep` points below it (what follows it:
   * a table's header and first rows) rather than left alone at the bottom of one.
   */
  heading(text: string, keep = 60): void {
    this.ensure(keep + 30);
    this.doc.y += 8;
    this.doc.font("Bold").fontSize(14).fillColor(INK).text(text, this.#left, this.doc.y);
    const y = this.doc.y + 2;
    this.doc.rect(this.#left, y, this.width, 1.2).fill("#cbd5e1");
    this.doc.y = y + 6;
    this.doc.font("Body").fillColor(INK);
  }

  /** A paragraph (muted when `muted`). */
  paragraph(text: string, muted = false): void {
    this.doc.font("Body").fontSize(9.5).fillColor(muted ? MUTED : INK);
    this.ensure(this.doc.heightOfString(text, { width: this.width }) + 4);
    this.doc.text(text, this.#left, this.doc.y, { width: this.width });
    this.doc.fillColor(INK);
    this.doc.y += 3;
  }

  /** A bullet list. */
  bullets(items: string[]): void {
    for (const item of items) this.paragraph(`•  ${item}`);
  }

  /** Key/value pairs laid out `perRow` pairs to a row (two by default). */
  keyValues(pairs: [string, string][], perRow = 2): void {
    const keyWidth = perRow === 1 ? 200 : 150;
    const valueWidth = this.width / perRow - keyWidth;
    const rows: [string, string][][] = [];
    for (let i = 0; i < pairs.length; i += perRow) rows.push(pairs.slice(i, i + perRow));
    const cols: PdfColumn<[string, string][]>[] = [];
    for (let i = 0; i < perRow; i++) {
      cols.push(
        { head: "", width: keyWidth, value: (r) => r[i]?.[0] ?? "", bold: true },
        { head: "", width: valueWidth, value: (r) => r[i]?.[1] ?? "" },
      );
    }
    this.table(cols, rows, { header: false });
  }

  /** A table; rows never split, the header repeats on each page. */
  table<T>(
    cols: PdfColumn<T>[],
    rows: T[],
    options: { header?: boolean; size?: number } = {},
  ): void {
    const size = options.size ?? 8.5;
    const pad = 3;
    const doc = this.doc;
    const header = options.header ?? true;
    const heightOf = (cells: string[], bold: boolean) => {
      return Math.max(
        ...cells.map((c, i) => {
          doc.font(bold || cols[i]!.bold ? "Bold" : "Body").fontSize(size);
          return doc.heightOfString(c, { width: cols[i]!.width - 2 * pad });
        }),
      ) + 2 * pad;
    };
    const drawRow = (cells: string[], bold: boolean, fill: string | null) => {
      const h = heightOf(cells, bold);
      let x = this.#left;
      const y = doc.y;
      if (fill) doc.rect(x, y, cols.reduce((s, c) => s + c.width, 0), h).fill(fill);
      cells.forEach((c, i) => {
        const col = cols[i]!;
        doc.font(bold || col.bold ? "Bold" : "Body").fontSize(size).fillColor(INK);
        doc.text(c, x + pad, y + pad, { width: col.width - 2 * pad, align: col.align ?? "left" });
        x += col.width;
      });
      doc.y = y + h;
    };
    const heads = cols.map((c) => c.head);
    if (header) {
      this.ensure(heightOf(heads, true) + 20);
      drawRow(heads, true, "#e5e7eb");
    }
    rows.forEach((row, i) => {
      const cells = cols.map((c) => c.value(row));
      if (doc.y + heightOf(cells, false) > this.#bottom) {
        doc.addPage();
        if (header) drawRow(heads, true, "#e5e7eb");
      }
      drawRow(cells, false, i % 2 === 1 ? "#f3f4f6" : null);
    });
    doc.x = this.#left;
    doc.y += 6;
  }

  /** Writes the footers and returns the PDF bytes. */
  finish(footer: string): Promise<Uint8Array> {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const p = this.doc.page;
      const bottom = p.margins.bottom;
      p.margins.bottom = 0;
      this.doc.font("Body").fontSize(8).fillColor(MUTED).text(
        `${footer} · page ${i + 1} of ${range.count}`,
        p.margins.left,
        p.height - 24,
        { width: p.width - p.margins.left - p.margins.right, align: "right", lineBreak: false },
      );
      p.margins.bottom = bottom;
    }
    this.doc.end();
    return this.#done;
  }
}
