import assert from "node:assert/strict";
import pg from "pg";
import { ConflictError } from "../../../lib/error.ts";
import { FleetRegistry } from "../../../lib/fleet/registry.ts";
import { testPostgres } from "../../_postgres.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** A register on a new database of the test cluster; closed by `await using`. */
async function setUp(liveSeconds = 30) {
  const cluster = await testPostgres();
  const pool = new pg.Pool({ connectionString: await cluster.createDatabase(), max: 2 });
  const registry = new FleetRegistry(pool, { liveSeconds });
  await registry.ensureSchema();
  return { pool, registry, [Symbol.asyncDispose]: () => pool.end() };
}

Deno.test(
  "FleetRegistry lists a registered agent as live with its machine and no job",
  opts,
  async () => {
    await using s = await setUp();
    await s.registry.ensureSchema(); // twice: nothing happens
    await s.registry.register("gpu-box", "i1", { hostname: "gpu-box", cores: 16 });
    const [agent] = await s.registry.list();
    assert.equal(agent?.name, "gpu-box");
    assert.equal(agent?.live, true);
    assert.deepEqual(agent?.machine, { hostname: "gpu-box", cores: 16 });
    assert.equal(agent?.job, null);
    assert.equal(agent?.stoppedAt, null);
  },
);

Deno.test(
  "FleetRegistry refuses a second live agent of the same name and says where the first runs",
  opts,
  async () => {
    await using s = await setUp();
    await s.registry.register("gpu-box", "i1", { hostname: "desk" });
    await assert.rejects(
      () => s.registry.register("gpu-box", "i2", { hostname: "laptop" }),
      (e) => e instanceof ConflictError && /live on desk/.test(e.message),
    );
    assert.equal(await s.registry.heartbeat("gpu-box", "i1"), true);
    assert.equal(await s.registry.heartbeat("gpu-box", "i2"), false, "i2 never took the name");
  },
);

Deno.test(
  "FleetRegistry lets a name be taken again once its agent stopped or went silent",
  opts,
  async () => {
    await using s = await setUp(1);
    await s.registry.register("a", "i1", {});
    await s.registry.stopped("a", "i1");
    assert.equal((await s.registry.list())[0]?.live, false);
    await s.registry.register("a", "i2", {});
    await new Promise((r) => setTimeout(r, 1200)); // i2 silent for longer than the live window
    assert.equal((await s.registry.list())[0]?.live, false);
    await s.registry.register("a", "i3", {});
    assert.equal(await s.registry.heartbeat("a", "i2"), false, "the silent one lost the name");
    assert.equal((await s.registry.list())[0]?.instance, "i3");
  },
);

Deno.test(
  "FleetRegistry keeps the current job and its latest status until the job ends",
  opts,
  async () => {
    await using s = await setUp();
    await s.registry.register("a", "i1", {});
    await s.registry.setJob("a", "i1", { id: "j1", args: ["--runs", "2"] });
    await s.registry.setStatus("a", "i1", { status: "running", model: "m" });
    let [agent] = await s.registry.list();
    assert.deepEqual(agent?.job?.args, ["--runs", "2"]);
    assert.equal(agent?.job?.id, "j1");
    assert.deepEqual(agent?.status, { status: "running", model: "m" });
    await s.registry.setJob("a", "i1", null);
    [agent] = await s.registry.list();
    assert.equal(agent?.job, null);
    assert.equal(agent?.status, null);
  },
);
