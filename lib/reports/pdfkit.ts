/**
 * Loads pdfkit for the PDF report, once per process: the one-file build of it that
 * `deno task build` writes (`tools/pdfkit_bundle.ts`, `.cache/build/pdfkit.js` of the project)
 * where there is one, else the npm package itself (the same code: a checkout not built yet, or
 * a `deno task bundle` program copied elsewhere). The build loads in 0.05–0.07 s less CPU
 * (0.13 s against 0.18–0.20 s; docs/decisions.md).
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** pdfkit's document class, as the report constructs it. */
export type PdfDocumentClass = new (options: Record<string, unknown>) => unknown;

/** Where `deno task build` writes the bundle (tools/pdfkit_bundle.ts `PDFKIT_BUNDLE`). */
export const PDFKIT_BUNDLE_URL: URL = new URL("../../.cache/build/pdfkit.js", import.meta.url);

/** Which copy {@linkcode loadPdfkit} loaded: the build's or the npm package. */
export type PdfkitSource = "bundle" | "package";

let loaded: Promise<{ PDFDocument: PdfDocumentClass; source: PdfkitSource }> | null = null;

function hasBundle(url: URL): boolean {
  if (url.protocol !== "file:") return false;
  try {
    return Deno.statSync(fileURLToPath(url)).isFile;
  } catch {
    return false;
  }
}

/**
 * pdfkit's `PDFDocument` and where it came from. A bundle that exists but fails to load is an
 * error (not hidden behind the package).
 */
export function loadPdfkit(
  bundle: URL = PDFKIT_BUNDLE_URL,
): Promise<{ PDFDocument: PdfDocumentClass; source: PdfkitSource }> {
  if (bundle !== PDFKIT_BUNDLE_URL) return load(bundle);
  return loaded ??= load(bundle).catch((err) => {
    loaded = null;
    throw err;
  });
}

async function load(
  bundle: URL,
): Promise<{ PDFDocument: PdfDocumentClass; source: PdfkitSource }> {
  if (hasBundle(bundle)) {
    const mod = await import(bundle.href) as { default: PdfDocumentClass };
    return { PDFDocument: mod.default, source: "bundle" };
  }
  const mod = await import("pdfkit") as unknown as { default: PdfDocumentClass };
  return { PDFDocument: mod.default, source: "package" };
}
