import assert from "node:assert/strict";
import {
  agentLive,
  ago,
  currentJobText,
  type FleetAgent,
  type FleetJob,
  jobError,
  lastJobText,
  machineChoices,
  machineFacts,
  reconcileAgentLive,
  reduceAgentLive,
} from "../../components/fleet_state.ts";
import { initialLive } from "../../components/live_state.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");

function agent(over: Partial<FleetAgent> = {}): FleetAgent {
  return {
    name: "box",
    machine: { hostname: "box.lan" },
    live: true,
    last_heartbeat: "2026-11-28T11:59:58Z",
    started_at: "2026-11-28T11:00:00Z",
    stopped_at: null,
    current_job: null,
    last_job: null,
    lost: null,
    ...over,
  };
}

function job(over: Partial<FleetJob> = {}): FleetJob {
  return {
    id: "j1",
    state: "completed",
    args: [],
    createdOn: "2026-11-28T11:50:00Z",
    startedOn: "2026-11-28T11:50:01Z",
    completedOn: "2026-11-28T11:55:00Z",
    output: null,
    ...over,
  };
}

Deno.test("ago() says how long ago a time was, in the largest whole unit", () => {
  assert.equal(ago("2026-11-28T12:00:01Z", NOW), "just now", "a clock a bit ahead");
  assert.equal(ago("2026-11-28T11:59:48Z", NOW), "12 s ago");
  assert.equal(ago("2026-11-28T11:55:00Z", NOW), "5 min ago");
  assert.equal(ago("2026-11-28T09:30:00Z", NOW), "2 h ago");
  assert.equal(ago("2026-11-24T12:00:00Z", NOW), "4 d ago");
  assert.equal(ago("not a time", NOW), "at an unknown time");
});

Deno.test("machineFacts() names the host, CPU, RAM and GPUs the agent reported", () => {
  assert.deepEqual(
    machineFacts({
      hostname: "gpu.lan",
      os: "linux",
      cpu_model: "Ryzen 9",
      cpu_cores: 16,
      ram_bytes: 64 * 1024 ** 3,
      gpus: [{ name: "RTX 4090", driver: "550" }, { name: "RTX 3090", driver: "550" }],
    }),
    {
      host: "gpu.lan",
      os: "linux",
      cpu: "Ryzen 9, 16 cores",
      ram: "64.0 GiB",
      gpu: "RTX 4090 + RTX 3090",
    },
  );
  assert.equal(machineFacts({ ram_gb: 31.2 }).ram, "31.2 GiB", "the machine record's GiB");
  assert.deepEqual(machineFacts({}), { host: null, os: null, cpu: null, ram: null, gpu: null });
});

Deno.test("jobError() finds the reason in a failed job's output, either shape", () => {
  assert.equal(
    jobError(job({ state: "failed", output: { message: "out of memory" } })),
    "out of memory",
  );
  assert.equal(
    jobError(job({ state: "failed", output: { value: { message: "job heartbeat timeout" } } })),
    "job heartbeat timeout",
  );
  assert.equal(jobError(job({ output: null })), null);
  assert.equal(jobError(null), null);
});

Deno.test("currentJobText() gives the job's arguments, model, percent and phase", () => {
  assert.equal(currentJobText(agent()), null);
  const a = agent({
    current_job: {
      id: "j1",
      args: ["--runs", "3"],
      startedAt: "2026-11-28T11:59:00Z",
      status: { model: "qwen/qwen3-4b@q4_k_m", progress: { percent: 37.6, detail: "run 2/3" } },
    },
  });
  assert.equal(currentJobText(a), "--runs 3 · qwen/qwen3-4b@q4_k_m · 38% · run 2/3");
  const waiting = agent({
    current_job: { id: "j2", args: [], startedAt: "2026-11-28T11:59:00Z", status: null },
  });
  assert.equal(currentJobText(waiting), "default arguments");
});

Deno.test("lastJobText() says how the last job ended, a failure with its reason", () => {
  assert.equal(lastJobText(null), null);
  assert.equal(lastJobText(job()), "completed");
  assert.equal(lastJobText(job({ state: "created" })), "queued");
  assert.equal(lastJobText(job({ state: "active" })), "running");
  assert.equal(
    lastJobText(job({ state: "failed", output: { message: "No model server" } })),
    "failed: No model server",
  );
  assert.equal(lastJobText(job({ state: "failed" })), "failed: no reason given");
});

Deno.test("machineChoices() offers this machine and each agent, offline ones disabled with their heartbeat", () => {
  const choices = machineChoices({
    available: true,
    reason: null,
    agents: [
      agent({ name: "gpu", current_job: { id: "j", args: [], startedAt: "", status: null } }),
      agent({ name: "old", live: false, last_heartbeat: "2026-11-28T11:57:00Z" }),
    ],
  }, NOW);
  assert.deepEqual(choices, [
    { value: "", label: "This machine", disabled: false },
    { value: "gpu", label: "gpu (busy)", disabled: false },
    { value: "old", label: "old (offline, last heartbeat 3 min ago)", disabled: true },
  ]);
});

Deno.test("agentLive() starts from the agent's job status, else from how its last job ended", () => {
  const running = agentLive(agent({
    current_job: {
      id: "j",
      args: [],
      startedAt: "",
      status: { status: "running", model: "tiny", started_at: "t1", progress: { percent: 40 } },
    },
  }));
  assert.equal(running.status, "running");
  assert.equal(running.model, "tiny");
  assert.equal(running.percent, 40);
  const done = agentLive(agent({ last_job: job({ output: { outcome: "completed", tested: 2 } }) }));
  assert.equal(done.status, "idle");
  assert.equal(done.outcome?.outcome, "completed");
  assert.equal(done.outcome?.tested, 2);
  const failed = agentLive(
    agent({ last_job: job({ state: "failed", output: { message: "boom" } }) }),
  );
  assert.deepEqual([failed.outcome?.outcome, failed.outcome?.error], ["failed", "boom"]);
  assert.equal(agentLive(undefined).outcome, null);
});

Deno.test("reduceAgentLive() folds an agent's events with the page's reducer, its job's start and end too", () => {
  let s = initialLive("idle");
  s = reduceAgentLive(s, { type: "job", state: "active", args: [] });
  assert.equal(s.status, "running");
  s = reduceAgentLive(s, { type: "status", status: "running", model: "tiny", started_at: "t1" });
  s = reduceAgentLive(s, { type: "run_start", run: 1, runs: 2, parallel: 1 });
  s = reduceAgentLive(s, { type: "tokens", omitted: true });
  assert.equal(s.output, "run 1/2:\n", "an event left out of its notification changes nothing");
  s = reduceAgentLive(s, { type: "job", state: "failed", error: "model server gone" });
  assert.equal(s.status, "idle");
  assert.deepEqual([s.outcome?.outcome, s.outcome?.error], ["failed", "model server gone"]);
  assert.deepEqual(s.errors, ["model server gone"]);
  // The controller's own closing status said it already: not twice.
  let t = reduceAgentLive(initialLive("running"), {
    type: "status",
    status: "idle",
    started_at: "t1",
    outcome: { outcome: "failed", error: "oom", tested: 0, failed: 1, skipped: 0 },
  });
  t = reduceAgentLive(t, { type: "job", state: "failed", error: "oom" });
  assert.equal(t.outcome?.error, "oom");
  assert.deepEqual(t.errors, []);
  const done = reduceAgentLive(initialLive("running"), { type: "job", state: "completed" });
  assert.equal(done.status, "idle");
});

Deno.test("reconcileAgentLive() ends a view whose job the fleet list shows ended or lost", () => {
  const running = { ...initialLive("running"), model: "tiny" };
  assert.equal(reconcileAgentLive(running, undefined), running);
  const still = agent({ current_job: { id: "j", args: [], startedAt: "", status: null } });
  assert.equal(reconcileAgentLive(running, still), running, "its job still runs");
  const queued = agent({ last_job: job({ state: "created" }) });
  assert.equal(reconcileAgentLive(running, queued), running, "no job ended");
  const ended = reconcileAgentLive(running, agent({ last_job: job({ output: { tested: 1 } }) }));
  assert.deepEqual([ended.status, ended.outcome?.outcome], ["idle", "completed"]);
  const lost = reconcileAgentLive(
    running,
    agent({ live: false, lost: "The agent stopped answering" }),
  );
  assert.deepEqual([lost.status, lost.outcome?.error], ["idle", "The agent stopped answering"]);
  const idle = initialLive("idle");
  assert.equal(reconcileAgentLive(idle, agent({ lost: "x" })), idle, "an idle view stays");
});
