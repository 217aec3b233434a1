import assert from "node:assert/strict";
import { waitFor } from "../../_helpers.ts";
import { STREAMS_PER_CLIENT } from "../../../lib/dashboard/events.ts";
import { startLmStudioDouble } from "../../doubles/lmstudio_server.ts";
import { post, type TestDashboard, testDashboard } from "../_dashboard.ts";
import type { ServerFacts } from "../../../lib/bench/mod.ts";
import { machineRecord } from "../../lib/store/_machines.ts";
import { rowsOf } from "../../../lib/shared/columns.ts";

/** The status once `ok` holds for it (polled, up to 20 s). */
function statusWhen(
  d: TestDashboard,
  ok: (s: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return waitFor(async () => {
    const s = await (await d.request("/api/status")).json();
    return ok(s) ? s as Record<string, unknown> : null;
  }, { what: "the status", timeoutMs: 20_000, intervalMs: 20 });
}

async function withDouble(
  tokenDelayMs: number,
  fn: (d: TestDashboard) => Promise<void>,
): Promise<void> {
  const double = await startLmStudioDouble({ port: 0, tokenDelayMs });
  try {
    await using d = await testDashboard({
      baseArgs: ["--backend", "rest", "--base-url", double.url, "--runs", "1"],
    });
    await fn(d);
  } finally {
    await double.close();
  }
}

Deno.test("pause, resume and stop are 409 when no benchmark runs", async () => {
  await using d = await testDashboard();
  for (const action of ["pause", "resume", "stop"]) {
    const res = await post(d, `/api/benchmark/${action}`);
    assert.equal(res.status, 409, action);
    assert.match((await res.json()).error, /^Cannot /);
  }
});

Deno.test("POST /api/benchmark/start refuses bad arguments with clear 400s", async () => {
  await using d = await testDashboard();
  const cases: [unknown, RegExp][] = [
    [{ speed: 3 }, /Unknown benchmark argument 'speed'/],
    [{ runs: 0 }, /runs/],
    [{ runs: "many" }, /runs/],
    [{ retest: "yes" }, /true or false/],
    [{ list_cache: true }, /command-line action/],
    [{ preset: "nope" }, /Unknown preset 'nope'/],
    [{ include_models: "(" }, /regular expression/],
    ["[1, 2]", /JSON object/],
    ["{not json", /Invalid JSON/],
  ];
  for (const [body, message] of cases) {
    const res = await post(d, "/api/benchmark/start", body);
    assert.equal(res.status, 400, JSON.stringify(body));
    const answer = await res.json();
    assert.match(answer.error, message);
    assert.equal(typeof answer.code, "string", "every error body carries its code");
  }
  assert.equal((await (await d.request("/api/status")).json()).status, "idle");
});

Deno.test("POST /api/benchmark/start is 503 when the model server does not answer", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedPort = listener.addr.port;
  listener.close();
  await using d = await testDashboard({
    baseArgs: ["--backend", "rest", "--base-url", `http://127.0.0.1:${closedPort}`],
  });
  const res = await post(d, "/api/benchmark/start", {});
  assert.equal(res.status, 503);
  assert.equal((await res.json()).code, "unreachable");
  assert.equal((await (await d.request("/api/status")).json()).status, "idle");
});

Deno.test("POST /api/benchmark/start is 502, not 400, when the model server answers 400", async () => {
  // The model server's 400 is a failure of the server we call, never a bad request of the caller.
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ error: "Invalid model identifier" }, { status: 400 }),
  );
  try {
    await using d = await testDashboard({
      baseArgs: ["--backend", "openai", "--base-url", `http://127.0.0.1:${server.addr.port}`],
    });
    const res = await post(d, "/api/benchmark/start", {});
    assert.deepEqual([res.status, await res.json()], [502, {
      error: "Invalid model identifier (HTTP 400)",
      code: "upstream",
    }]);
    assert.equal((await (await d.request("/api/status")).json()).status, "idle");
  } finally {
    await server.shutdown();
  }
});

Deno.test("a benchmark started by the API runs to completion and fills the results", async () => {
  await withDouble(0, async (d) => {
    const res = await post(d, "/api/benchmark/start", { max_tokens: 16, n_parallel: 1 });
    assert.equal(res.status, 202);
    assert.equal((await res.json()).status, "running");
    const s = await statusWhen(d, (s) => s.status === "idle");
    const outcome = s.outcome as Record<string, unknown>;
    assert.equal(outcome.outcome, "completed");
    assert.ok((outcome.tested as number) >= 1);
    const results = await (await d.request("/api/results")).json();
    assert.equal(results.count, outcome.tested);
    const stats = await (await d.request("/api/dashboard/stats")).json();
    assert.equal(stats.cached_models, outcome.tested);
  });
});

Deno.test("start twice, resume while running and pause while paused are 409", async () => {
  await withDouble(30, async (d) => {
    assert.equal((await post(d, "/api/benchmark/start", { n_parallel: 1 })).status, 202);
    assert.equal((await post(d, "/api/benchmark/start", {})).status, 409);
    assert.equal((await post(d, "/api/benchmark/resume")).status, 409);
    const paused = await post(d, "/api/benchmark/pause");
    assert.equal(paused.status, 200);
    assert.equal((await paused.json()).status, "paused");
    assert.equal((await (await d.request("/api/status")).json()).status, "paused");
    assert.equal((await post(d, "/api/benchmark/pause")).status, 409);
    assert.equal((await post(d, "/api/benchmark/start", {})).status, 409);
    const resumed = await post(d, "/api/benchmark/resume");
    assert.equal((await resumed.json()).status, "running");
    const stopped = await post(d, "/api/benchmark/stop");
    assert.equal(stopped.status, 200);
    const s = await stopped.json();
    assert.equal(s.status, "idle");
    assert.equal(s.outcome.outcome, "stopped");
    assert.equal((await post(d, "/api/benchmark/stop")).status, 409);
  });
});

Deno.test("GET /api/benchmark/events streams typed JSON: status, progress, tokens and logs", async () => {
  await withDouble(0, async (d) => {
    const res = await d.request("/api/benchmark/events");
    assert.equal(res.headers.get("Content-Type"), "text/event-stream; charset=utf-8");
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    await post(d, "/api/benchmark/start", { max_tokens: 8, n_parallel: 1, limit: 1 });
    const types = new Set<string>();
    let text = "";
    const end = Date.now() + 20_000;
    while (!types.has("job_end") && Date.now() < end) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      for (const m of text.matchAll(/^data: (.*)$/gm)) types.add(JSON.parse(m[1]!).type);
    }
    await reader.cancel();
    for (const t of ["status", "job_start", "model_start", "tokens", "run_end", "job_end"]) {
      assert.ok(types.has(t), `missing ${t} in ${[...types]}`);
    }
    assert.match(text, /^id: \d+$/m);
    await statusWhen(d, (s) => s.status === "idle");
  });
});

/** A dashboard whose model server address has nothing listening. */
async function noModelServer(): Promise<TestDashboard> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return await testDashboard({
    baseArgs: ["--backend", "rest", "--base-url", `http://127.0.0.1:${port}`],
  });
}

type Event = { type: string; [k: string]: unknown };

/** Reads server-sent events until `until` says stop (or `ms` pass); returns them in order. */
async function readEvents(
  res: Response,
  until: (seen: Event[]) => boolean,
  ms = 10_000,
): Promise<Event[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: Event[] = [];
  let buffer = "";
  const end = Date.now() + ms;
  try {
    while (!until(seen) && Date.now() < end) {
      const next = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, end - Date.now()))),
      ]);
      if (next === null || next.done) break;
      buffer += next.value;
      const blocks = buffer.split("\n\n");
      buffer = blocks.pop()!;
      for (const b of blocks) {
        const data = /^data: (.*)$/m.exec(b);
        if (data) seen.push(JSON.parse(data[1]!));
      }
    }
  } finally {
    await reader.cancel();
  }
  return seen;
}

const statuses = (events: Event[]) =>
  events.filter((e) => e.type === "status").map((e) => e.status);

Deno.test("a start without a model server ends idle with an error event, and the stream says so", async () => {
  await using d = await noModelServer();
  const stream = await d.request("/api/benchmark/events");
  const reading = readEvents(stream, (seen) => statuses(seen).slice(1).includes("idle"));
  const res = await post(d, "/api/benchmark/start", {});
  assert.equal(res.status, 503);
  const error = (await res.json()).error as string;
  const events = await reading;
  // The snapshot on connect, "running" once the arguments were valid, then the closing "idle".
  assert.deepEqual(statuses(events), ["idle", "running", "idle"]);
  const log = events.find((e) => e.type === "log")!;
  assert.equal(log.level, "error");
  assert.equal(log.message, `Benchmark not started: ${error}`);
  const last = events.at(-1)!;
  assert.equal(last.type, "status");
  assert.equal((last.outcome as { outcome: string; error: string }).outcome, "failed");
  assert.equal((last.outcome as { error: string }).error, error);

  const status = await (await d.request("/api/status")).json();
  assert.equal(status.status, "idle");
  assert.equal(status.running, false);
  assert.equal(status.outcome.outcome, "failed");
  assert.equal(status.outcome.error, error);
  // Nothing is left half-started: Stop has nothing to stop, Start can be tried again.
  assert.equal((await post(d, "/api/benchmark/stop")).status, 409);
  assert.equal((await post(d, "/api/benchmark/start", {})).status, 503);
});

Deno.test("a page loaded after a failed start replays no stale 'running'", async () => {
  await using d = await noModelServer();
  assert.equal((await post(d, "/api/benchmark/start", {})).status, 503);
  // A reload: a new stream replays the backlog after the current snapshot.
  const events = await readEvents(
    await d.request("/api/benchmark/events"),
    (seen) => seen.filter((e) => e.type === "status").length >= 3,
  );
  assert.deepEqual(statuses(events), ["idle", "running", "idle"]);
  assert.equal(events.at(-1)!.status, "idle", "the newest state replayed is idle");
  // Reconnecting after the last event seen replays nothing more.
  const lastId = await (async () => {
    const res = await d.request("/api/benchmark/events");
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!/\n\n[\s\S]*\n\n[\s\S]*\n\n[\s\S]*\n\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    await reader.cancel();
    return Math.max(...[...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
  })();
  const after = await readEvents(
    await d.request("/api/benchmark/events", { headers: { "Last-Event-ID": String(lastId) } }),
    (seen) => seen.length >= 1,
  );
  assert.deepEqual(statuses(after), ["idle"], "only the snapshot");
});

Deno.test("bad arguments are refused without any event: the status never left idle", async () => {
  await using d = await noModelServer();
  const stream = await d.request("/api/benchmark/events");
  const res = await post(d, "/api/benchmark/start", { runs: "many" });
  assert.equal(res.status, 400);
  const events = await readEvents(stream, () => false, 300);
  assert.deepEqual(statuses(events), ["idle"]);
  assert.equal((await (await d.request("/api/status")).json()).outcome, null);
});

Deno.test("a new run's status carries no outcome of the run before, its error included", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const double = await startLmStudioDouble({ port: 0, tokenDelayMs: 30 });
  try {
    await using d = await testDashboard({ baseArgs: ["--backend", "rest", "--runs", "1"] });
    // A failed start leaves its error as the last outcome.
    const failed = await post(d, "/api/benchmark/start", { base_url: `http://127.0.0.1:${port}` });
    assert.equal(failed.status, 503);
    const before = await (await d.request("/api/status")).json();
    assert.equal(before.outcome?.outcome, "failed");
    const res = await post(d, "/api/benchmark/start", { base_url: double.url, n_parallel: 1 });
    assert.equal(res.status, 202);
    const running = await (await d.request("/api/status")).json();
    assert.equal(running.status, "running");
    assert.equal(running.outcome, null, "no stale error beside a running benchmark");
    await post(d, "/api/benchmark/stop");
  } finally {
    await double.close();
  }
});

Deno.test("GET /api/benchmark/events answers 429 beyond the streams one client may hold", async () => {
  await using d = await testDashboard();
  const open: Response[] = [];
  try {
    for (let i = 0; i < STREAMS_PER_CLIENT; i++) {
      const res = await d.request("/api/benchmark/events");
      open.push(res);
      assert.equal(res.status, 200, `stream ${i + 1}`);
    }
    const refused = await d.request("/api/benchmark/events");
    assert.equal(refused.status, 429);
    assert.equal((await refused.json()).code, "too_many_requests");
    await open.pop()!.body!.cancel();
    await waitFor(async () => {
      const res = await d.request("/api/benchmark/events");
      if (res.status === 200) open.push(res);
      else await res.body?.cancel();
      return res.status === 200;
    }, "a slot given back");
  } finally {
    for (const res of open) await res.body!.cancel();
  }
});

Deno.test("a benchmark started by the API records the machine it runs on with every result", async () => {
  const double = await startLmStudioDouble({ port: 0, tokenDelayMs: 0 });
  const servers: ServerFacts[] = [];
  try {
    await using d = await testDashboard({
      baseArgs: ["--backend", "rest", "--base-url", double.url, "--runs", "1"],
      machine: (server) => {
        servers.push(server);
        return Promise.resolve(machineRecord("dddd000000000004", "dash-host"));
      },
    });
    assert.equal((await post(d, "/api/benchmark/start", { n_parallel: 1 })).status, 202);
    await statusWhen(d, (s) => s.status === "idle");
    const results = rowsOf(await (await d.request("/api/results")).json());
    assert.ok(results.length >= 1);
    for (const r of results) {
      assert.deepEqual([r.machine_id, r.machine_name], ["dddd000000000004", "dash-host"]);
    }
    assert.match(String(servers[0]!.describe), new RegExp(double.url.replace(/[.:/]/g, ".")));
  } finally {
    await double.close();
  }
});

Deno.test("a machine that cannot be captured is said, and the results are stored without one", async () => {
  const double = await startLmStudioDouble({ port: 0, tokenDelayMs: 0 });
  try {
    await using d = await testDashboard({
      baseArgs: ["--backend", "rest", "--base-url", double.url, "--runs", "1"],
      machine: () => Promise.reject(new Error("machine-id is damaged")),
    });
    const warnings: string[] = [];
    const unsubscribe = d.web.controller.events.subscribe(({ event: e }) => {
      if (e.type === "log" && e.level === "warn") warnings.push(e.message);
    }, null);
    try {
      assert.equal((await post(d, "/api/benchmark/start", { n_parallel: 1 })).status, 202);
      const s = await statusWhen(d, (s) => s.status === "idle");
      assert.equal((s.outcome as { outcome: string }).outcome, "completed");
    } finally {
      unsubscribe();
    }
    const results = rowsOf(await (await d.request("/api/results")).json());
    assert.ok(results.length >= 1 && results.every((r) => !r.machine_id));
    assert.ok(
      warnings.some((w) => /machine could not be recorded \(machine-id is damaged\)/.test(w)),
      warnings.join("\n"),
    );
  } finally {
    await double.close();
  }
});
