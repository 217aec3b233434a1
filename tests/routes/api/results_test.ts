import assert from "node:assert/strict";
import { testDashboard } from "../_dashboard.ts";
import { seedStore } from "../_seed.ts";

Deno.test("GET /api/results returns one row per model variant with its latest figures", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  const res = await d.request("/api/results");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.count, 8);
  assert.equal(body.results.length, 8);
  const top = body.results[0];
  assert.equal(top.model_key, "tiny@q8_0");
  assert.equal(top.tokens_per_sec_mean, 56);
  assert.equal(top.prev_tokens_per_sec, 55);
  assert.equal(top.speed_delta_pct, 1.82);
  assert.equal(top.result_count, 2);
  assert.equal(top.architecture, "qwen3");
  assert.equal(top.quantization, "q8_0");
});
