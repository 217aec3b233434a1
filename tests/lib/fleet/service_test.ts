import assert from "node:assert/strict";
import pg from "pg";
import { ConflictError, NotFoundError, UsageError } from "../../../lib/error.ts";
import { FleetAgent } from "../../../lib/fleet/agent.ts";
import { FleetQueue } from "../../../lib/fleet/queue.ts";
import { FleetRegistry } from "../../../lib/fleet/registry.ts";
import { FleetService } from "../../../lib/fleet/service.ts";
import { waitFor } from "../../_helpers.ts";
import { testPostgres } from "../../_postgres.ts";

/** Polls `check` every 100 ms for up to 20 s. */
const until = (check: () => unknown, what: string) =>
  waitFor(check, { what, timeoutMs: 20_000, intervalMs: 100 });

const opts = { sanitizeResources: false, sanitizeOps: false };

/** A fleet service on a new database, with an agent `box` whose runner waits for `release`. */
async function setUp() {
  const url = await (await testPostgres()).createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on("error", () => {});
  const service = await FleetService.start({ url, sql: pool });
  let release = () => {};
  const agentQueue = await FleetQueue.start(url, { pollingIntervalSeconds: 0.5 });
  const agent = await FleetAgent.start({
    name: "box",
    machine: { hostname: "box", cpu_cores: 8 },
    sql: pool,
    queue: agentQueue,
    runner: {
      async run(_args, emit) {
        emit({ type: "status", status: "running", model: "tiny" });
        await new Promise<void>((r) => release = r);
        return { outcome: "completed" };
      },
    },
  });
  return {
    url,
    pool,
    service,
    release: () => release(),
    async [Symbol.asyncDispose]() {
      release();
      await agent.stop();
      await service.close();
      await pool.end();
    },
  };
}

Deno.test(
  "FleetService lists the agents with their machine, heartbeat and current job",
  opts,
  async () => {
    await using s = await setUp();
    let [box] = await s.service.agents();
    assert.equal(box?.name, "box");
    assert.equal(box?.live, true);
    assert.deepEqual(box?.machine, { hostname: "box", cpu_cores: 8 });
    assert.equal(box?.current_job, null);
    const { job_id } = await s.service.start("box", ["--runs", "1"]);
    await until(
      async () => (await s.service.agents())[0]?.current_job?.status?.model === "tiny",
      "the job's status",
    );
    [box] = await s.service.agents();
    assert.equal(box?.current_job?.id, job_id);
    assert.deepEqual(box?.current_job?.args, ["--runs", "1"]);
    assert.equal(box?.last_job?.state, "active");
    s.release();
    await until(
      async () => (await s.service.agents())[0]?.last_job?.state === "completed",
      "completion",
    );
    assert.equal((await s.service.agents())[0]?.current_job, null);
    assert.equal((await s.service.agents())[0]?.lost, null);
  },
);

Deno.test(
  "FleetService passes each agent's live events to the dashboard's streams, in order",
  opts,
  async () => {
    await using s = await setUp();
    const seen: string[] = [];
    s.service.events.subscribe(
      ({ event }) => seen.push(`${event.agent}:${event.event.type}`),
      null,
    );
    await s.service.start("box", []);
    await until(() => seen.includes("box:status"), "the status event");
    s.release();
    await until(() => seen.filter((e) => e === "box:job").length === 2, "the job's end");
    assert.deepEqual(seen, ["box:job", "box:status", "box:job"]);
  },
);

Deno.test(
  "FleetService refuses a job for an unknown, badly named or stopped agent",
  opts,
  async () => {
    await using s = await setUp();
    await assert.rejects(() => s.service.start("nobody", []), NotFoundError);
    await assert.rejects(() => s.service.start("../x", []), UsageError);
    const registry = new FleetRegistry(s.pool);
    await registry.register("old", "i0", { hostname: "old" });
    await registry.stopped("old", "i0");
    await assert.rejects(
      () => s.service.start("old", []),
      (e) => e instanceof ConflictError && /not running/.test(e.message),
    );
  },
);
