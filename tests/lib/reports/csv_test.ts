import assert from "node:assert/strict";
import { CSV_COLUMNS, csvField, renderCsv } from "../../../lib/reports/mod.ts";
import { parseCsv } from "./csv_parse.ts";
import { FIXTURE_MODELS, FIXTURE_PROMPT } from "./fixtures.ts";
import { fixtureReport } from "./report_data.ts";

Deno.test("csvField() quotes commas, quotes and line breaks as RFC 4180 says", () => {
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField('a "b", c'), '"a ""b"", c"');
  assert.equal(csvField("x\ny"), '"x\ny"');
  assert.equal(csvField(null), "");
  assert.equal(csvField(1.5), "1.5");
});

Deno.test("csvField() neutralises text a spreadsheet would run as a formula, after leading blanks and line breaks too", () => {
  for (
    const text of [
      "=1+1",
      "+1",
      "-2",
      "@SUM(A1)",
      "\tx",
      "\rx",
      " =1+1",
      "\n=1+1",
      " \r\n @x",
      "\u00a0-1",
    ]
  ) {
    const field = csvField(text);
    assert.ok(field === `'${text}` || field === `"'${text}"`, JSON.stringify(field));
  }
  assert.equal(csvField("\n=1+1"), `"'\n=1+1"`);
  assert.equal(csvField("a=1"), "a=1");
  assert.equal(csvField(" ok"), " ok");
  assert.equal(csvField(-3.5), "-3.5", "a number is written as it is");
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
