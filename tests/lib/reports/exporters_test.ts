import assert from "node:assert/strict";
import { join } from "node:path";
import { writeReports } from "../../../lib/reports/mod.ts";
import { staticGraph } from "../../../tools/import_graph.ts";
import { REPO_ROOT, tempEnv } from "../../_helpers.ts";
import { fixtureReport } from "./report_data.ts";

Deno.test("importing the reports loads no PDF, HTML or chart package until such a report is written", async () => {
  const graph = await staticGraph(REPO_ROOT, "lib/reports/mod.ts");
  for (const pkg of ["pdfkit", "preact-render-to-string", "chart.js", "@napi-rs/canvas"]) {
    assert.ok(!graph.npm.includes(pkg), `${pkg} is loaded by lib/reports/mod.ts`);
  }
  assert.ok(!graph.files.includes("lib/reports/pdf.ts"));
  assert.ok(!graph.files.includes("lib/reports/html.tsx"));
});

Deno.test("the exporters loaded on demand still write all four reports", async () => {
  await using t = await tempEnv();
  const dir = join(t.root, "results");
  const outcome = await writeReports(await fixtureReport(), dir);
  assert.deepEqual(outcome.errors, []);
  const pdf = await Deno.readFile(outcome.files.pdf!);
  assert.equal(new TextDecoder().decode(pdf.subarray(0, 5)), "%PDF-");
  assert.match(await Deno.readTextFile(outcome.files.html!), /<canvas|<html/);
  assert.deepEqual(Object.keys(outcome.files).sort(), ["csv", "html", "json", "pdf"]);
});
