import assert from "node:assert/strict";
import { waitFor } from "../../_helpers.ts";
import { startLmStudioDouble } from "../../doubles/lmstudio_server.ts";
import { post, type TestDashboard, testDashboard } from "../_dashboard.ts";

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

Deno.test("GET /api/status is idle before any benchmark", async () => {
  await using d = await testDashboard();
  const s = await (await d.request("/api/status")).json();
  assert.equal(s.status, "idle");
  assert.equal(s.model, null);
  assert.equal(s.outcome, null);
  assert.equal(s.progress.percent, 0);
});

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

// With the token: shutdown always needs it, even on loopback (see tests/security/).
Deno.test("POST /api/system/shutdown stops the benchmark, answers 200, then exits", async () => {
  await withDouble(30, async (d) => {
    await post(d, "/api/benchmark/start", { n_parallel: 1 });
    const res = await d.request("/api/system/shutdown", {
      method: "POST",
      headers: { "X-Localbench-Token": d.web.token },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: "shutting_down" });
    assert.equal((await (await d.request("/api/status")).json()).status, "idle");
    await waitFor(() => d.exits > 0, "the exit after the shutdown answer");
    assert.equal(d.exits, 1);
  });
});
