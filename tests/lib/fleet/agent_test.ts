import assert from "node:assert/strict";
import pg from "pg";
import { type AgentRunner, FleetAgent } from "../../../lib/fleet/agent.ts";
import { type FleetProgress, listenProgress } from "../../../lib/fleet/progress.ts";
import { FleetQueue } from "../../../lib/fleet/queue.ts";
import { FleetRegistry } from "../../../lib/fleet/registry.ts";
import { waitFor } from "../../_helpers.ts";
import { testPostgres } from "../../_postgres.ts";

/** Polls `check` every 100 ms for up to 20 s. */
const until = (check: () => unknown, what: string) =>
  waitFor(check, { what, timeoutMs: 20_000, intervalMs: 100 });

const opts = { sanitizeResources: false, sanitizeOps: false };

/** An agent `a` with `runner`, a dashboard-side queue and a progress listener, on a new database. */
async function setUp(runner: AgentRunner) {
  const url = await (await testPostgres()).createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on("error", () => {}); // the cluster stopping at the file's end
  const seen: FleetProgress[] = [];
  const unlisten = await listenProgress(url, (p) => seen.push(p));
  const agentQueue = await FleetQueue.start(url, { pollingIntervalSeconds: 0.5 });
  const agent = await FleetAgent.start({
    name: "a",
    machine: { hostname: "box" },
    runner,
    sql: pool,
    queue: agentQueue,
    heartbeatMs: 200,
  });
  const dashboard = await FleetQueue.start(url);
  const registry = new FleetRegistry(pool);
  return {
    agent,
    dashboard,
    registry,
    seen,
    async [Symbol.asyncDispose]() {
      await agent.stop();
      await dashboard.stop();
      await unlisten();
      await pool.end();
    },
  };
}

Deno.test(
  "A fleet agent runs the job sent to it, streams its events and completes it with the summary",
  opts,
  async () => {
    let release = () => {};
    const ran: string[][] = [];
    await using s = await setUp({
      async run(args, emit) {
        ran.push(args);
        emit({ type: "status", status: "running", model: "tiny" });
        await new Promise<void>((r) => release = r);
        emit({ type: "result", model: "tiny", tokens_per_sec: 12.5 });
        return { outcome: "ok", tested: ["tiny"] };
      },
    });
    const id = await s.dashboard.submit("a", ["--runs", "1"]);
    await until(
      async () => (await s.registry.list())[0]?.job?.id === id,
      "the job in the register",
    );
    await until(async () => (await s.registry.list())[0]?.status?.model === "tiny", "its status");
    release();
    await until(async () => (await s.dashboard.jobs("a"))[0]?.state === "completed", "completion");
    const [job] = await s.dashboard.jobs("a");
    assert.deepEqual(job?.args, ["--runs", "1"]);
    assert.deepEqual(job?.output, { outcome: "ok", tested: ["tiny"] });
    assert.deepEqual(ran, [["--runs", "1"]]);
    await until(
      () => s.seen.some((p) => p.event.type === "job" && p.event.state === "completed"),
      "the end event",
    );
    assert.deepEqual(
      s.seen.filter((p) => p.job === id).map((p) => p.event.type),
      ["job", "status", "result", "job"],
    );
    assert.ok(s.seen.every((p) => p.agent === "a"));
    assert.equal((await s.registry.list())[0]?.job, null, "the register shows no job after it");
  },
);

Deno.test(
  "A fleet agent fails a job whose benchmark failed, with the reason, and takes the next one",
  opts,
  async () => {
    let calls = 0;
    await using s = await setUp({
      run(args) {
        calls++;
        if (args[0] === "bad") {
          return Promise.reject(new Error("model server unreachable at :1234"));
        }
        return Promise.resolve({ outcome: "ok" });
      },
    });
    const bad = await s.dashboard.submit("a", ["bad"]);
    const good = await s.dashboard.submit("a", ["good"]);
    await until(async () => {
      const jobs = await s.dashboard.jobs("a");
      return jobs.every((j) => j.state === "failed" || j.state === "completed") &&
        jobs.length === 2;
    }, "both jobs to end");
    const jobs = await s.dashboard.jobs("a");
    const failed = jobs.find((j) => j.id === bad)!;
    assert.equal(failed.state, "failed");
    assert.match(JSON.stringify(failed.output), /model server unreachable/);
    assert.equal(jobs.find((j) => j.id === good)?.state, "completed");
    assert.equal(calls, 2, "a failed benchmark is not retried");
  },
);

Deno.test("Progress events too big for a notification arrive as a marker", opts, async () => {
  await using s = await setUp({
    run(_args, emit) {
      emit({ type: "log", text: "x".repeat(20_000) });
      return Promise.resolve({});
    },
  });
  await s.dashboard.submit("a", []);
  await until(() => s.seen.some((p) => p.event.type === "log"), "the log event");
  assert.deepEqual(s.seen.find((p) => p.event.type === "log")?.event, {
    type: "log",
    omitted: true,
  });
});
