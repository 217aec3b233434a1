import assert from "node:assert/strict";
import { join } from "node:path";
import { requestRecord, saveRequests } from "../../../lib/bench/save_requests.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { tempEnv } from "../../_helpers.ts";

const RESULT = { id: 7, model_key: "org/m@q4", backend: "openai" };

Deno.test("a request's phase comes from its row: load mode, a parallel round, else sequential", () => {
  const phase = (run: Record<string, unknown>) =>
    requestRecord(RESULT, { run_index: 0, status: "ok", ...run }).phase;
  assert.equal(phase({}), "sequential");
  assert.equal(phase({ parallel: 4, run_index: 1003 }), "parallel");
  assert.equal(phase({ parallel: 8, load_mode: "concurrency", load_level: 8 }), "load");
  assert.equal(phase({ parallel: 0, load_mode: "rate", load_level: 2.5 }), "load");
});

Deno.test("a failed request keeps its error and times; missing figures are null, gaps empty", () => {
  const rec = requestRecord(RESULT, {
    run_index: 1_000_001,
    status: "failed",
    error: "HTTP 503",
    load_mode: "rate",
    load_level: 2,
    started_at_ms: 1_700_000_000_000.5,
    ended_at_ms: 1_700_000_000_900,
  });
  assert.deepEqual(
    [rec.status, rec.error, rec.start_ms, rec.started_at, rec.ttft_ms, rec.itl_ms],
    ["failed", "HTTP 503", 1_700_000_000_000.5, "2023-11-14T22:13:20.000Z", null, []],
  );
});

Deno.test("saveRequests() names the file and the fix when the folder cannot be written", async () => {
  await using t = await tempEnv();
  const store = ResultsStore.open(":memory:");
  try {
    const blocker = join(t.root, "file");
    await Deno.writeTextFile(blocker, "");
    await assert.rejects(
      () => saveRequests(join(blocker, "r.jsonl"), store, []),
      /Cannot write the requests to .*r\.jsonl .*--save-requests/,
    );
  } finally {
    store.close();
  }
});

Deno.test("a request keeps its targets and whether it stopped before its output target", () => {
  const rec = (run: Record<string, unknown>) =>
    requestRecord(RESULT, { run_index: 0, status: "ok", ...run });
  const early = rec({
    gen_tokens_target: 64,
    tokens_out: 12,
    stop_reason: "stop",
    stopped_early: 1,
  });
  assert.deepEqual(
    [early.output_tokens_target, early.stop_reason, early.stopped_early],
    [64, "stop", true],
  );
  assert.equal(rec({ gen_tokens_target: 8, stopped_early: 0 }).stopped_early, false);
  assert.equal(rec({}).stopped_early, null, "no target: nothing to stop before");
  assert.equal(rec({ prompt_tokens_target: 300 }).prompt_tokens_target, 300);
});
