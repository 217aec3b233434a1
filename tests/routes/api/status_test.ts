import assert from "node:assert/strict";
import { testDashboard } from "../_dashboard.ts";

Deno.test("GET /api/status is idle before any benchmark", async () => {
  await using d = await testDashboard();
  const s = await (await d.request("/api/status")).json();
  assert.equal(s.status, "idle");
  assert.equal(s.model, null);
  assert.equal(s.outcome, null);
  assert.equal(s.progress.percent, 0);
});
