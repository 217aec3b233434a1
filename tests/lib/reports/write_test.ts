import assert from "node:assert/strict";
import { join } from "node:path";
import { renderJson, writeReports } from "../../../lib/reports/mod.ts";
import { fixtureReport } from "./report_data.ts";

Deno.test("writeReports() reports a failing exporter and still writes the others", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = await fixtureReport();
    const out = await writeReports(data, dir, {
      exporters: {
        json: renderJson,
        pdf: () => {
          throw new Error("no fonts here");
        },
        csv: () => "a,b\r\n",
      },
    });
    assert.deepEqual(out.errors, [{ format: "pdf", message: "no fonts here" }]);
    assert.deepEqual(Object.keys(out.files).sort(), ["csv", "json"]);
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, [
      "benchmark_results_20260302_093000.csv",
      "benchmark_results_20260302_093000.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeReports() never overwrites a report written in the same second", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await writeReports(await fixtureReport(), dir, {
      exporters: { json: renderJson },
    });
    const second = await writeReports(await fixtureReport(), dir, {
      exporters: { json: renderJson },
    });
    assert.equal(first.files.json, join(dir, "benchmark_results_20260302_093000.json"));
    assert.equal(second.files.json, join(dir, "benchmark_results_20260302_093000_2.json"));
    const json = JSON.parse(await Deno.readTextFile(second.files.json!));
    assert.equal(json.report_id, "20260302_093000_2");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
