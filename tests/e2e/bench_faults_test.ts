import assert from "node:assert/strict";
import { JobController } from "../../lib/bench/job_control.ts";
import { bench, ofType, restSequence, testOptions } from "../lib/bench/_harness.ts";

const QWEN = "qwen/qwen3-4b@q4_k_m";
const QWEN8 = "qwen/qwen3-4b@q8_0";
const QWENS = testOptions({ filters: { include_models: "^qwen/" } });

Deno.test("a 'Model unloaded' error reloads the model and repeats the run once", async () => {
  await using b = await bench();
  const { summary, events } = await b.run("rest", QWENS, {
    onEvent: (e) => {
      if (e.type === "warmup_done" && e.key === QWEN) b.double.faults.modelUnloadedOnce.add(QWEN);
    },
  });
  assert.deepEqual(summary.tested, [QWEN, QWEN8]);
  const row = b.store.allResults().find((r) => r.model_key === QWEN)!;
  assert.equal(row.status, "ok");
  assert.equal(row.runs_ok, 2);
  assert.deepEqual(b.store.runsOf(row.id).map((r) => [r.status, r.retried]), [["ok", 1], [
    "ok",
    0,
  ]]);
  assert.equal(ofType(events, "run_end")[0]!.retried, true);
  const seq = restSequence(b.double).filter((s) => s.endsWith(QWEN));
  assert.deepEqual(seq, [
    `load:${QWEN}`,
    `chat:${QWEN}`,
    `chat:${QWEN}`, // "Model unloaded"
    `load:${QWEN}`,
    `chat:${QWEN}`, // the repeat
    `chat:${QWEN}`,
    `unload:${QWEN}`,
  ]);
});

Deno.test("a model that fails its warmup is recorded as failed and the next model is measured", async () => {
  await using b = await bench();
  b.double.faults.failWarmup.add(QWEN);
  const { summary } = await b.run("rest", QWENS);
  assert.equal(summary.outcome, "completed");
  assert.deepEqual(summary.failed, [QWEN]);
  assert.deepEqual(summary.tested, [QWEN8]);
  const failed = b.store.allResults().find((r) => r.model_key === QWEN)!;
  assert.equal(failed.status, "failed");
  assert.match(String(failed.error), /^warmup failed: .*simulated failure/);
  assert.ok(restSequence(b.double).includes(`unload:${QWEN}`), "the failed model is unloaded");
  assert.equal(b.store.findCached(QWEN, summary.paramsHash, null), null, "a failure is not cached");
});

Deno.test("a run that fails is recorded and the model still has its good runs", async () => {
  await using b = await bench();
  let chats = 0;
  const { summary, events } = await b.run(
    "rest",
    testOptions({ filters: { include_models: QWEN } }),
    {
      onEvent: (e) => {
        if (e.type === "run_start") chats++;
        if (e.type === "run_start" && chats === 2) b.double.faults.failChat.add(QWEN);
      },
    },
  );
  assert.deepEqual(summary.tested, [QWEN]);
  assert.deepEqual(summary.partial, [QWEN], "measured, but partial");
  assert.equal(ofType(events, "model_end")[0]!.status, "partial");
  assert.equal(ofType(events, "job_end")[0]!.partial, 1);
  const row = b.store.allResults()[0]!;
  assert.deepEqual([row.runs_ok, row.runs_failed], [1, 1]);
  assert.equal(row.status, "partial", "stored partial, not ok");
  assert.deepEqual(b.store.runsOf(row.id).map((r) => r.status), ["ok", "failed"]);

  // A result with a failed run is no cache hit: the next benchmark measures the model again.
  b.double.faults.failChat.delete(QWEN);
  const again = await b.run("rest", testOptions({ filters: { include_models: QWEN } }));
  assert.deepEqual(again.summary.tested, [QWEN]);
});

Deno.test("when every model fails the job outcome is failed", async () => {
  await using b = await bench();
  b.double.faults.failLoad.add("qwen/qwen3-4b");
  const { summary, events } = await b.run("rest", QWENS);
  assert.equal(summary.outcome, "failed");
  assert.equal(summary.error, "every model failed");
  assert.deepEqual(summary.failed, [QWEN, QWEN8]);
  assert.equal(ofType(events, "job_end")[0]!.outcome, "failed");
});

Deno.test("stop aborts the in-flight run, records the model as stopped and unloads it", async () => {
  await using b = await bench({ tokenDelayMs: 5 });
  const { summary } = await b.run("rest", QWENS, {
    onEvent: (e, control) => {
      if (e.type === "tokens" && e.run === 1) control.stop();
    },
  });
  assert.equal(summary.outcome, "stopped");
  const rows = b.store.allResults();
  assert.deepEqual(rows.map((r) => [r.model_key, r.status]), [[QWEN, "stopped"]]);
  assert.equal(restSequence(b.double).at(-1), `unload:${QWEN}`);
});

Deno.test("pause holds the next run until resume", async () => {
  await using b = await bench();
  const control = new JobController();
  let pausedAt = -1;
  const run = b.run("rest", testOptions({ filters: { include_models: QWEN } }), {
    control,
    onEvent: (e, c) => {
      if (e.type === "run_end" && e.run === 1) {
        c.pause();
        pausedAt = b.double.state.requests.length;
      }
    },
  });
  for (let i = 0; i < 100 && pausedAt < 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(control.paused);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(b.double.state.requests.length, pausedAt, "no request while paused");
  control.resume();
  const { summary } = await run;
  assert.deepEqual(summary.tested, [QWEN]);
  assert.equal(b.store.allResults()[0]!.runs_ok, 2);
});

Deno.test("a server that stops during the job fails that model and ends the job with a clear error", async () => {
  await using b = await bench();
  const { summary } = await b.run("rest", QWENS, {
    onEvent: (e) => {
      if (e.type === "model_loaded") void b.double.close();
    },
  });
  assert.equal(summary.outcome, "failed");
  const rows = b.store.allResults();
  assert.equal(rows[0]!.status, "failed");
  assert.match(String(rows[0]!.error), /warmup failed: .*(reach|connect|refused)/i);
  assert.equal(rows.length, 1, "the next model is not attempted against a server that is gone");
  assert.match(String(summary.error), /reach|stopped answering|refused/i);
});

Deno.test("failed requests of a parallel round make the result partial, and it is measured again", async () => {
  await using b = await bench();
  const opts = testOptions({ n_parallel: 2, filters: { include_models: QWEN } });
  const { summary } = await b.run("rest", opts, {
    onEvent: (e) => {
      if (e.type === "run_start" && (e.parallel ?? 1) > 1) b.double.faults.failChat.add(QWEN);
    },
  });
  assert.deepEqual(summary.partial, [QWEN]);
  const row = b.store.allResults()[0]!;
  assert.deepEqual([row.status, row.runs_failed], ["partial", 0], "every measured run was good");
  assert.match(String(row.warnings_json), /parallel request failed/);
  // Each failed request is stored with its error and times, as every request is.
  const failed = b.store.runsOf(row.id).filter((r) => r.status === "failed");
  assert.ok(failed.length > 0);
  for (const r of failed) {
    assert.equal(r.parallel, 2);
    assert.ok(typeof r.error === "string" && r.error.length > 0);
    assert.ok((r.ended_at_ms as number) >= (r.started_at_ms as number));
  }
  b.double.faults.failChat.delete(QWEN);
  const again = await b.run("rest", opts);
  assert.deepEqual(again.summary.tested, [QWEN], "no cache hit");
});
