/**
 * State handed across a planned restart: written after a planned stop (0600), read once at the
 * resumed start, never after a real stop or by a start that is not resumed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createHost } from "../../../lib/host/mod.ts";
import type { PluginContext, PluginDescriptor } from "../../../lib/host/plugin.ts";
import { createLogger } from "../../../lib/log.ts";
import { SessionStore } from "../../../lib/host/auth/sessions.ts";
import * as v from "valibot";

function carrier(seen: unknown[]): PluginDescriptor {
  return {
    id: "carrier",
    name: "Carrier",
    version: "1",
    settingsVersion: 1,
    settingsSchema: v.strictObject({}),
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

Deno.test("a signed-in browser keeps its session across a planned restart, not across a real stop", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lb_handover_" });
  const logger = createLogger("t", { sink: () => {} });
  const start = async (resumed: boolean) => {
    const host = createHost({ plugins: [carrier([])], dataDir: dir, logger, resumed });
    await host.start();
    return host;
  };
  try {
    let host = await start(false);
    await host.users.addUser("ann", "ann-pass", ["STATUS"]);
    const session = host.sessions.create("ann", (await host.users.account("ann"))!.stamp);
    await host.stop({ planned: true });
    const text = await Deno.readTextFile(join(dir, "host", "handover.json"));
    assert.ok(text.includes(session.id), "handed over in the 0600 file");
    host = await start(true);
    const resumed = host.sessions.get(session.id);
    assert.equal(resumed?.user, "ann");
    assert.equal(resumed?.csrfToken, session.csrfToken, "the page's CSRF token still works");
    await host.stop({ planned: false });
    host = await start(true);
    assert.equal(host.sessions.get(session.id), null, "a real stop ends every session");
    await host.stop({ planned: false });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sessions handed over in a bad shape or already expired are dropped", () => {
  let now = 1_000;
  const store = new SessionStore({ now: () => now });
  const live = store.create("ann", "stamp");
  const exported = store.export();
  const next = new SessionStore({ now: () => now });
  next.import([...exported, { id: "x" }, "junk", { ...live, id: "old", ends: 500 }]);
  assert.equal(next.size, 1);
  next.import("not a list");
  assert.equal(next.get(live.id)?.csrfToken, live.csrfToken);
  now += 25 * 3600_000;
  assert.equal(next.size, 0);
});
