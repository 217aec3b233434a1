import assert from "node:assert/strict";
import { post, testDashboard } from "../_dashboard.ts";

Deno.test("GET /api/fleet on a SQLite store lists no agents and says the fleet needs PostgreSQL", async () => {
  await using d = await testDashboard();
  const res = await d.request("/api/fleet");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.available, false);
  assert.deepEqual(body.agents, []);
  assert.match(body.reason, /PostgreSQL store/);
});

Deno.test("POST /api/benchmark/start for another machine is 409 on a dashboard without a fleet", async () => {
  await using d = await testDashboard();
  const res = await post(d, "/api/benchmark/start", { machine: "gpu-box", runs: 1 });
  assert.equal(res.status, 409);
  const body = await res.json();
  assert.equal(body.code, "fleet_unavailable");
  assert.equal(
    (await (await d.request("/api/status")).json()).status,
    "idle",
    "nothing started here",
  );
});

Deno.test("POST /api/benchmark/start refuses a machine that is not a name, before anything starts", async () => {
  await using d = await testDashboard();
  for (const machine of [3, true, ["a"]]) {
    const res = await post(d, "/api/benchmark/start", { machine });
    assert.equal(res.status, 400, JSON.stringify(machine));
    assert.match((await res.json()).error, /'machine'/);
  }
});

Deno.test("GET /api/fleet/events is 409 on a dashboard without a fleet", async () => {
  await using d = await testDashboard();
  const res = await d.request("/api/fleet/events");
  assert.equal(res.status, 409);
  await res.body?.cancel();
});
