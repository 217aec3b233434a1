import assert from "node:assert/strict";
import {
  CSV_COLUMNS,
  csvField,
  renderCsv,
  renderJson,
  REPORT_SCHEMA,
} from "../../../lib/reports/mod.ts";
import { VERSION } from "../../../lib/version.ts";
import { parseCsv } from "./csv_parse.ts";
import { FIXTURE_MODELS, FIXTURE_PARAMS, FIXTURE_PROMPT, fixtureStore } from "./fixtures.ts";
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
    for (const row of store.latestPerModel()) {
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

Deno.test("csvField() quotes commas, quotes and line breaks as RFC 4180 says", () => {
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField('a "b", c'), '"a ""b"", c"');
  assert.equal(csvField("x\ny"), '"x\ny"');
  assert.equal(csvField(null), "");
  assert.equal(csvField(1.5), "1.5");
});

Deno.test("the CSV report round-trips through a CSV parser with the documented column order", async () => {
  const data = await fixtureReport();
  const text = renderCsv(data);
  assert.ok(text.endsWith("\r\n"));
  const rows = parseCsv(text);
  assert.deepEqual(rows[0], [...CSV_COLUMNS]);
  assert.equal(rows.length, 1 + FIXTURE_MODELS.length);
  for (const row of rows) assert.equal(row.length, CSV_COLUMNS.length);
  const records = rows.slice(1).map((r) =>
    Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, r[i]!]))
  );
  for (const e of data.entries) {
    const rec = records.find((r) => r.model_key === e.row.model_key)!;
    assert.equal(rec.prompt, FIXTURE_PROMPT);
    assert.equal(Number(rec.tokens_per_sec_mean), e.row.tokens_per_sec_mean);
    assert.equal(Number(rec.ttft_ms_p95), e.row.ttft_ms_p95);
    assert.equal(rec.has_tools, String(Boolean(e.row.has_tools)));
  }
  const llama = records.find((r) => r.model_key!.startsWith("meta/"))!;
  assert.equal(llama.runs_failed, "1");
  assert.equal(llama.warnings, "1 run failed");
  assert.equal(llama.vram_mb, "");
});
