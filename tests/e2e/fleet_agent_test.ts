/**
 * The fleet with real parts: `deno task agent` as its own process on a real PostgreSQL store,
 * jobs sent by the dashboard's fleet service, runs measured against the LM Studio double, an
 * agent killed mid-job (the job fails, the runs measured before stay in the store), a name
 * already taken, and a stop with Ctrl-C.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { FleetService } from "../../lib/fleet/mod.ts";
import { ResultsStore } from "../../lib/store/mod.ts";
import { programPermissions, REPO_ROOT, tempEnv, waitFor } from "../_helpers.ts";
import { testPostgres } from "../_postgres.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";

const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;

const opts = { sanitizeResources: false, sanitizeOps: false };

/** `deno task agent` as a child process; `lines` collects what it prints. */
function spawnAgent(args: string[], vars: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...programPermissions("agent"), "agent.ts", ...args],
    cwd: REPO_ROOT,
    // The parent's Deno cache: a child with another HOME would otherwise fetch package metadata.
    env: { NO_COLOR: "1", DENO_DIR, ...vars },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of stream) {
      const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = parts.pop() ?? "";
      lines.push(...parts.filter((l) => l !== ""));
    }
    if (rest !== "") lines.push(rest);
  };
  const read = Promise.all([collect(child.stdout), collect(child.stderr)]);
  return {
    child,
    lines,
    async ended() {
      const status = await child.status;
      await read;
      return status.code;
    },
  };
}

/** A store, a model-server double, the dashboard's fleet service, and an agent env. */
async function setUp(tokenDelayMs: number) {
  const url = await (await testPostgres()).createDatabase();
  const double = await startLmStudioDouble({ port: 0, tokenDelayMs });
  const env = await tempEnv();
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on("error", () => {});
  const store = ResultsStore.open(url);
  const fleet = await FleetService.start({
    url,
    sql: pool,
    monitorIntervalSeconds: 1,
    onLost: (owner) => store.interruptOwner(owner),
  });
  const agentArgs = (name: string) => [
    "--store",
    url,
    "--name",
    name,
    "--heartbeat-seconds",
    "10",
    "--backend",
    "rest",
    "--base-url",
    double.url,
  ];
  return {
    url,
    fleet,
    store,
    env,
    agentArgs,
    async [Symbol.asyncDispose]() {
      await fleet.close();
      store.close();
      await pool.end();
      await double.close();
      await env[Symbol.asyncDispose]();
    },
  };
}

const waiting = (lines: string[]) => lines.some((l) => /waiting for benchmark jobs/.test(l));

Deno.test(
  "An agent killed mid-job: the job fails, the dashboard says so, the runs it measured stay",
  opts,
  async () => {
    await using s = await setUp(40);
    const agent = spawnAgent(s.agentArgs("box"), s.env.vars);
    try {
      await waitFor(() => waiting(agent.lines), { what: "the agent", timeoutMs: 60_000 });
      const runEnds: unknown[] = [];
      s.fleet.events.subscribe(({ event }) => {
        if (event.event.type === "run_end") runEnds.push(event.event);
      }, null);
      const { job_id } = await s.fleet.start("box", ["--runs", "20", "--limit", "1"]);
      await waitFor(() => runEnds.length >= 2, { what: "two measured runs", timeoutMs: 60_000 });
      agent.child.kill("SIGKILL");
      await agent.ended();
      const box = await waitFor(async () => {
        const [a] = await s.fleet.agents();
        return a && !a.live && a.last_job?.state === "failed" ? a : null;
      }, { what: "the job failed by the queue", timeoutMs: 90_000, intervalMs: 500 });
      assert.equal(box.last_job?.id, job_id);
      assert.match(box.lost ?? "", /stopped answering .* the job failed .* kept/);
      const runs = s.store.db.prepare("SELECT COUNT(*) AS n FROM runs").get() as { n: number };
      assert.ok(Number(runs.n) >= 2, `the runs measured before the kill are kept (${runs.n})`);
      const results = s.store.db.prepare("SELECT status, error, machine_id FROM results").all() as {
        status: string;
        error: string | null;
        machine_id: string | null;
      }[];
      assert.equal(results.length, 1);
      assert.equal(results[0]!.status, "failed", "the result it was measuring is interrupted");
      assert.match(results[0]!.error ?? "", /Interrupted/);
      assert.notEqual(results[0]!.machine_id, null, "the agent recorded its machine");
      assert.ok(box.machine.hostname, "the fleet view shows the agent's machine");
    } finally {
      try {
        agent.child.kill("SIGKILL");
      } catch { /* ended */ }
      await agent.ended();
    }
  },
);

Deno.test(
  "A second agent cannot take a live agent's name; Ctrl-C stops an agent cleanly",
  opts,
  async () => {
    await using s = await setUp(1);
    const first = spawnAgent(s.agentArgs("desk"), s.env.vars);
    try {
      await waitFor(() => waiting(first.lines), { what: "the agent", timeoutMs: 60_000 });
      const second = spawnAgent(s.agentArgs("desk"), s.env.vars);
      assert.notEqual(await second.ended(), 0);
      assert.match(second.lines.join("\n"), /agent of that name is live .*choose another --name/);
      const { job_id } = await s.fleet.start("desk", ["--runs", "1", "--limit", "1"]);
      await waitFor(async () => (await s.fleet.jobs("desk"))[0]?.state === "completed", {
        what: "the job",
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      assert.equal((await s.fleet.jobs("desk"))[0]?.id, job_id);
      first.child.kill("SIGINT");
      assert.equal(await first.ended(), 0);
      const [desk] = await s.fleet.agents();
      assert.equal(desk?.live, false);
      assert.notEqual(desk?.stopped_at, null);
      assert.equal(desk?.lost, null, "a stopped agent lost nothing");
    } finally {
      try {
        first.child.kill("SIGKILL");
      } catch { /* ended */ }
    }
  },
);

Deno.test(
  "The agent refuses to start without a PostgreSQL store, in one line with an exit code",
  opts,
  async () => {
    await using env = await tempEnv();
    const agent = spawnAgent(["--name", "x"], env.vars);
    assert.equal(await agent.ended(), 2);
    assert.equal(agent.lines.length, 1);
    assert.match(agent.lines[0]!, /needs the shared PostgreSQL store/);
  },
);
