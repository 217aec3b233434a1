import assert from "node:assert/strict";
import type { FleetService } from "../../lib/fleet/mod.ts";
import { testDashboard } from "./_dashboard.ts";

/** A fleet whose database does not answer. */
const silentFleet = {
  agents: () => Promise.reject(new Error("connection refused (127.0.0.1:5432)")),
  close: () => Promise.resolve(),
} as unknown as FleetService;

Deno.test("the Benchmark page of a dashboard without a fleet shows no picker or fleet view", async () => {
  await using d = await testDashboard();
  const res = await d.request("/benchmark");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(html.includes('id="btn-start"'));
  assert.ok(!html.includes('id="bench-machine"'));
  assert.ok(!html.includes('id="fleet"'));
});

Deno.test("the Benchmark page still serves this machine when the fleet's database does not answer, and says so", async () => {
  await using d = await testDashboard({ fleet: silentFleet });
  const res = await d.request("/benchmark");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(html.includes('id="btn-start"'));
  assert.ok(html.includes('id="bench-machine"'), "the picker: this machine at least");
  assert.match(
    html,
    /id="fleet-reason"[^>]*>The fleet could not be listed: connection refused \(127\.0\.0\.1:5432\)/,
  );
});
