import assert from "node:assert/strict";
import { post, testDashboard } from "../_dashboard.ts";

Deno.test("GET /api/presets lists the built-ins and GET /api/presets/{name} returns one", async () => {
  await using d = await testDashboard();
  const list = await (await d.request("/api/presets")).json();
  assert.deepEqual(
    list.presets.map((p: { name: string }) => p.name),
    ["default", "high_quality", "quick_test", "resource_limited"],
  );
  const one = await (await d.request("/api/presets/quick_test")).json();
  assert.equal(one.readonly, true);
  assert.equal(one.values.runs, 1);
  assert.equal((await d.request("/api/presets/missing")).status, 404);
  assert.equal((await d.request("/api/presets/bad%20name")).status, 400);
});

Deno.test("POST /api/presets saves a valid preset and refuses invalid values with 400", async () => {
  await using d = await testDashboard();
  const ok = await post(d, "/api/presets", {
    name: "mine",
    values: { runs: 2, quants: ["q4_k_m"], use_mmap: false },
  });
  assert.equal(ok.status, 201);
  const saved = await ok.json();
  assert.deepEqual(saved.values, { quants: "q4_k_m", runs: 2, use_mmap: false });
  const bad = await post(d, "/api/presets", { name: "bad", values: { runs: 0 } });
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error, /runs/);
  const unknown = await post(d, "/api/presets", { name: "bad", values: { speed: 1 } });
  assert.equal(unknown.status, 400);
  const builtIn = await post(d, "/api/presets", { name: "quick_test", values: { runs: 2 } });
  assert.equal(builtIn.status, 409);
  assert.equal((await post(d, "/api/presets", { values: {} })).status, 400);
});

Deno.test("DELETE /api/presets/{name} deletes user presets only", async () => {
  await using d = await testDashboard();
  await post(d, "/api/presets", { name: "mine", values: { runs: 2 } });
  assert.equal((await d.request("/api/presets/mine", { method: "DELETE" })).status, 204);
  assert.equal((await d.request("/api/presets/mine", { method: "DELETE" })).status, 404);
  assert.equal((await d.request("/api/presets/default", { method: "DELETE" })).status, 409);
});
