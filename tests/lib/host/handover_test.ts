/**
 * State handed across a planned restart: written after a planned stop (0600), read once at the
 * resumed start, never after a real stop or by a start that is not resumed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createHost } from "../../../lib/host/mod.ts";
import type { PluginContext, PluginDescriptor } from "../../../lib/host/plugin.ts";
import { createLogger } from "../../../lib/log.ts";

function carrier(seen: unknown[]): PluginDescriptor {
  return {
    id: "carrier",
    name: "Carrier",
    version: "1",
    settingsVersion: 1,
    settingsDefaults: {},
    validateSettings: (s) => s,
    create: (ctx: PluginContext) => ({
      start: () => {
        seen.push(ctx.resumed ? ctx.handover?.get() : "fresh");
      },
      stop: (info) => {
        if (info.planned) ctx.handover?.set({ streams: ["app.log"], count: 3 });
      },
    }),
  };
}

Deno.test("a planned stop hands the plugins' state to the resumed start, once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lb_handover_" });
  const logger = createLogger("t", { sink: () => {} });
  const seen: unknown[] = [];
  const run = async (resumed: boolean, planned: boolean) => {
    const host = createHost({ plugins: [carrier(seen)], dataDir: dir, logger, resumed });
    await host.start();
    await host.stop({ planned });
  };
  const file = join(dir, "host", "handover.json");
  try {
    await run(false, true);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    await run(true, false);
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
    await run(true, false);
    await run(false, true);
    await run(false, false);
    assert.deepEqual(seen, [
      "fresh",
      { streams: ["app.log"], count: 3 },
      undefined,
      "fresh",
      "fresh",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
