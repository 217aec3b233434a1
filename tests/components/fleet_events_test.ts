import assert from "node:assert/strict";

/** An EventSource double. */
class FakeEventSource {
  static all: FakeEventSource[] = [];
  onmessage: ((m: { data: string }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  close() {
    this.closed = true;
  }
  emit(agent: string, event: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify({ agent, job: "j1", event }) });
  }
}

/** The page's visibility, switchable. */
const page = new EventTarget() as EventTarget & { hidden: boolean };
page.hidden = false;
const setHidden = (hidden: boolean) => {
  page.hidden = hidden;
  page.dispatchEvent(new Event("visibilitychange"));
};

/** `GET /api/fleet` answered by `answer` (its calls counted, at most one at a time checked). */
const calls = { n: 0, open: 0, most: 0 };
let answer: () => Response = () => Response.json(LIST);
const LIST = {
  available: true,
  reason: null,
  agents: [{
    name: "gpu",
    machine: { hostname: "gpu.lan" },
    live: true,
    last_heartbeat: new Date().toISOString(),
    started_at: new Date().toISOString(),
    stopped_at: null,
    current_job: null,
    last_job: null,
    lost: null,
  }],
};

Object.defineProperty(globalThis, "EventSource", { value: FakeEventSource, configurable: true });
Object.defineProperty(globalThis, "document", { value: page, configurable: true });
globalThis.fetch = async (input: string | URL | Request) => {
  assert.equal(String(input), "/api/fleet");
  calls.n++;
  calls.most = Math.max(calls.most, ++calls.open);
  await new Promise((r) => setTimeout(r, 5));
  calls.open--;
  return answer();
};

const { agentLiveState, fleetList, followAgent, followFleet, refreshFleet } = await import(
  "../../components/fleet_events.ts"
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("followFleet() without a fleet shows the reason and asks nothing", async () => {
  calls.n = 0;
  const stop = followFleet({ available: false, reason: "no PostgreSQL", agents: [] }, {
    pollMs: 5,
  });
  await sleep(50);
  stop();
  assert.equal(calls.n, 0);
  assert.equal(fleetList.value.reason, "no PostgreSQL");
});

Deno.test("followFleet() polls one request at a time, not while the page is hidden, until stopped", async () => {
  calls.n = 0;
  const stop = followFleet({ available: true, reason: null, agents: [] }, { pollMs: 10 });
  await sleep(150);
  assert.ok(calls.n >= 3, `${calls.n} polls`);
  assert.equal(calls.most, 1, "never two requests at once");
  assert.equal(fleetList.value.agents[0]?.name, "gpu");
  setHidden(true);
  await sleep(30);
  const hiddenAt = calls.n;
  await sleep(100);
  assert.equal(calls.n, hiddenAt, "no poll while hidden");
  setHidden(false);
  await sleep(30);
  assert.ok(calls.n > hiddenAt, "a poll as soon as the page is back");
  stop();
  await sleep(30);
  const stoppedAt = calls.n;
  await sleep(60);
  assert.equal(calls.n, stoppedAt, "none after stop");
});

Deno.test("followFleet() waits longer after each failed poll, up to its bound", async () => {
  calls.n = 0;
  answer = () => Response.json({ error: "down" }, { status: 500 });
  try {
    const stop = followFleet({ available: true, reason: null, agents: [] }, {
      pollMs: 10,
      maxPollMs: 40,
    });
    await sleep(300);
    stop();
    // 10, 20, 40, 40… ms apart (plus each 5 ms request): far fewer than at 10 ms.
    assert.ok(calls.n >= 2 && calls.n <= 9, `${calls.n} polls`);
    assert.equal(await refreshFleet(), false);
  } finally {
    answer = () => Response.json(LIST);
  }
});

Deno.test("followAgent() folds the picked agent's events into the live view and refreshes on its job's start and end", async () => {
  fleetList.value = LIST;
  calls.n = 0;
  const stop = followAgent("gpu");
  const es = FakeEventSource.all.at(-1)!;
  assert.equal(es.url, "/api/fleet/events?machine=gpu");
  assert.equal(agentLiveState.value.status, "idle", "seeded from the list: no job");
  es.emit("gpu", { type: "job", state: "active", args: ["--runs", "1"] });
  es.emit("gpu", { type: "status", status: "running", model: "tiny", started_at: "t1" });
  es.emit("gpu", { type: "run_start", run: 1, runs: 1, parallel: 1 });
  es.onmessage?.({ data: "{broken" });
  es.onmessage?.({ data: JSON.stringify({ agent: "gpu" }) });
  assert.equal(agentLiveState.value.status, "running");
  assert.equal(agentLiveState.value.model, "tiny");
  assert.equal(agentLiveState.value.output, "run 1/1:\n");
  es.emit("gpu", { type: "job", state: "failed", error: "model server gone" });
  assert.equal(agentLiveState.value.outcome?.error, "model server gone");
  await sleep(30);
  assert.ok(calls.n >= 1, "the list was fetched again at the job's events");
  // Picking another agent closes this stream.
  const stopOther = followAgent("other");
  assert.equal(es.closed, true);
  stop(); // the first follower's stop leaves the second's stream open
  assert.equal(FakeEventSource.all.at(-1)!.closed, false);
  stopOther();
  assert.equal(FakeEventSource.all.at(-1)!.closed, true);
});

Deno.test("refreshFleet() shares a fetch under way, and its success, with every caller", async () => {
  calls.n = 0;
  const results = await Promise.all([refreshFleet(), refreshFleet(), refreshFleet()]);
  assert.deepEqual(results, [true, true, true]);
  assert.equal(calls.n, 1);
});
