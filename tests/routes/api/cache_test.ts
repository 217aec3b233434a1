import assert from "node:assert/strict";
import { post, testDashboard } from "../_dashboard.ts";
import { seedStore } from "../_seed.ts";

Deno.test("DELETE /api/cache/{model_key} deletes a variant whose key contains '/'", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  const res = await d.request("/api/cache/qwen/qwen3-4b@q4_k_m", { method: "DELETE" });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { model_key: "qwen/qwen3-4b@q4_k_m", deleted_results: 2 });
  assert.equal((await (await d.request("/api/results")).json()).count, 7);
  const again = await d.request("/api/cache/qwen/qwen3-4b@q4_k_m", { method: "DELETE" });
  assert.equal(again.status, 404);
});

Deno.test("POST /api/cache/clear keeps a backup copy and empties the results", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  const res = await post(d, "/api/cache/clear");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.deleted_count, 16);
  assert.ok((await Deno.stat(body.backup_file)).size > 0);
  assert.equal((await (await d.request("/api/results")).json()).count, 0);
});
