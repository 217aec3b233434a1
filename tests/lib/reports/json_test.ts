import assert from "node:assert/strict";
import { renderJson, REPORT_SCHEMA } from "../../../lib/reports/mod.ts";
import { VERSION } from "../../../lib/version.ts";
import { FIXTURE_MODELS, FIXTURE_PARAMS, fixtureStore } from "./fixtures.ts";
import { fixtureReport } from "./report_data.ts";

Deno.test("the JSON report holds every stored column, the runs, the parameters, the system and the version", async () => {
  const data = await fixtureReport();
  const json = JSON.parse(renderJson(data));
  assert.equal(json.schema, REPORT_SCHEMA);
  assert.equal(json.report_id, "20260302_093000");
  assert.deepEqual(json.tool, { name: "localbench", version: VERSION });
  assert.equal(typeof json.system.os, "string");
  assert.equal(json.results.length, FIXTURE_MODELS.length);
  const store = fixtureStore();
  try {
    for (const row of store.latestPerIdentity()) {
      const out = json.results.find((r: { model_key: string }) => r.model_key === row.model_key);
      assert.ok(out, row.model_key);
      for (const [column, value] of Object.entries(row)) {
        if (column.endsWith("_json")) continue;
        if (column === "has_vision" || column === "has_tools") {
          assert.equal(out[column], Boolean(value), column);
        } else assert.deepEqual(out[column], value, `${row.model_key} ${column}`);
      }
      assert.deepEqual(out.params, FIXTURE_PARAMS);
      assert.deepEqual(out.runs, store.runsOf(row.id));
      assert.ok(out.size_gb > 0);
    }
  } finally {
    store.close();
  }
  assert.equal(json.parameter_sets.length, 1);
  assert.equal(json.parameter_sets[0].values.inference.temperature, 0.35);
  assert.equal(json.summary.models, 4);
});
