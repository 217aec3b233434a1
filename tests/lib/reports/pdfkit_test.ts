import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadPdfkit, PDFKIT_BUNDLE_URL } from "../../../lib/reports/pdfkit.ts";
import { renderPdf } from "../../../lib/reports/pdf.ts";
import { buildPdfkitBundle, PDFKIT_BUNDLE } from "../../../tools/pdfkit_bundle.ts";
import { REPO_ROOT } from "../../_helpers.ts";
import { fixtureReport } from "./report_data.ts";

/** A PDF without what changes from one second to the next (creation time, file id). */
function timeless(pdf: Uint8Array): string {
  return new TextDecoder("latin1").decode(pdf)
    .replaceAll(/\(D:\d{14}Z\)/g, "(D:)")
    .replaceAll(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/g, "/ID []");
}

Deno.test("the PDF report uses the pdfkit build of deno task build, which writes the package's bytes", async () => {
  await buildPdfkitBundle(REPO_ROOT);
  assert.equal(PDFKIT_BUNDLE_URL.href, pathToFileURL(join(REPO_ROOT, PDFKIT_BUNDLE)).href);
  const built = await loadPdfkit();
  assert.equal(built.source, "bundle");
  const pkg = await loadPdfkit(new URL("file:///nonexistent/pdfkit.js"));
  assert.equal(pkg.source, "package");
  assert.notEqual(built.PDFDocument, pkg.PDFDocument);
  const data = await fixtureReport();
  const [fromBuild, fromPackage] = [
    await renderPdf(data),
    await renderPdf(data, Promise.resolve(pkg)),
  ];
  assert.equal(new TextDecoder().decode(fromBuild.subarray(0, 5)), "%PDF-");
  assert.equal(timeless(fromBuild), timeless(fromPackage));
});

Deno.test("a pdfkit build that exists but does not load is an error, not the package in its place", async () => {
  const dir = await Deno.makeTempDir({ prefix: "localbench-pdfkit-" });
  try {
    const broken = join(dir, "pdfkit.js");
    await Deno.writeTextFile(broken, "export default ;");
    await assert.rejects(() => loadPdfkit(pathToFileURL(broken)), /Expression expected/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("what the pdfkit build defers still works when used: an AES-encrypted document", async () => {
  const { PDFDocument, source } = await loadPdfkit();
  assert.equal(source, "bundle");
  const doc = new PDFDocument({ font: null, userPassword: "pw", pdfVersion: "1.7ext3" }) as {
    on(e: string, f: (c?: Uint8Array) => void): void;
    end(): void;
  };
  const chunks: Uint8Array[] = [];
  const done = new Promise<void>((resolve) => doc.on("end", () => resolve()));
  doc.on("data", (c) => chunks.push(c!));
  doc.end();
  await done;
  const text = new TextDecoder("latin1").decode(
    new Uint8Array(chunks.flatMap((c) => [...c])),
  );
  assert.match(text, /\/Filter \/Standard/);
  assert.match(text, /\/CFM \/AESV3/);
});
