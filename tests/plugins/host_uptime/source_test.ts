import assert from "node:assert/strict";
import { systemUptimeSeconds } from "../../../plugins/host_uptime/mod.ts";

Deno.test("systemUptimeSeconds() reads the first number and gives null when it cannot", async () => {
  assert.equal(await systemUptimeSeconds(() => Promise.resolve("12.5 40.1\n")), 12.5);
  assert.equal(await systemUptimeSeconds(() => Promise.resolve("garbage")), null);
  assert.equal(await systemUptimeSeconds(() => Promise.resolve("-3 1")), null);
  assert.equal(
    await systemUptimeSeconds(() => Promise.reject(new Deno.errors.NotCapable("no"))),
    null,
  );
});
