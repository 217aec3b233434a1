/** The host's scope watch asks its launcher for a restart only for what it may not use. */
import assert from "node:assert/strict";
import { createHost, missingScope } from "../../../lib/host/mod.ts";
import { createLogger } from "../../../lib/log.ts";
import { plugins } from "../../../plugins/registry.ts";
import { FakeClock, json } from "./_helpers.ts";
import { hostWebApp } from "../../_web.ts";

Deno.test("in a process with full network access nothing is missing, so a save needs no restart", async () => {
  const dir = await Deno.makeTempDir();
  const host = createHost({
    plugins,
    dataDir: dir,
    clock: new FakeClock(),
    logger: createLogger("t", { sink: () => {} }),
  });
  const { adminKey } = await host.start();
  try {
    const res = await hostWebApp(host).request("/api/settings", {
      ...json("POST", { plugins: { branchplus: { host: "127.0.0.1", port: 9 } } }),
      headers: { "X-Api-Key": adminKey!, "Content-Type": "application/json" },
    });
    const body = await res.json();
    assert.equal(res.status, 200);
    assert.equal(body.reapplying, undefined);
    assert.deepEqual(missingScope(plugins, host.settings), { net: [], read: [] });
  } finally {
    await host.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
