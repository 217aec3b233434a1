import assert from "node:assert/strict";
import { ReloadWatch, ttftContext } from "../../../lib/bench/reload.ts";
import type { Backend, ChatResult } from "../../../lib/modelserver/backend.ts";
import { bench, ofType, testConfig, testOptions } from "./_harness.ts";

const QWEN = "qwen/qwen3-4b@q4_k_m";

function result(load: number | null = null): ChatResult {
  return {
    text: "",
    stats: {
      tokens_in: 1,
      tokens_out: 1,
      time_to_first_token_ms: null,
      total_time_ms: null,
      tokens_per_second: null,
      model_load_time_ms: load,
    },
    client: { ttft_ms: 10, total_ms: 20, tokens_out: 1 },
    response_id: null,
  };
}

Deno.test("ReloadWatch sees a load the server reports and a changed load identity", async () => {
  let marker = "loaded|4000";
  const backend = { loadMarker: () => Promise.resolve(marker) } as unknown as Backend;
  const w = new ReloadWatch(backend, "m");
  await w.baseline("m");
  assert.equal(await w.check("m", result()), null);
  marker = "loaded|4100";
  assert.match(
    (await w.check("m", result()))!,
    /loaded the model again .* loaded\|4000 to loaded\|4100/,
  );
  assert.equal(await w.check("m", result()), null, "the next run compares with the new load");
  assert.match((await w.check("m", result(350)))!, /loaded the model during the run \(350 ms\)/);
  const silent = new ReloadWatch({} as Backend, "m");
  await silent.baseline("m");
  assert.equal(await silent.check("m", result()), null, "a server that tells nothing");
  assert.equal(ttftContext(189, [17, 18, 16]), "; TTFT 189 ms against a median of 17 ms");
});

Deno.test("a run during which LM Studio loaded the model again is marked and left out", async () => {
  await using b = await bench();
  const config = { ...testConfig(b.double.port), num_runs: 3 };
  const { summary, events } = await b.run(
    "rest",
    testOptions({ filters: { include_models: QWEN } }),
    {
      config,
      onEvent: (e) => {
        // Someone unloads the model after the first run: the next chat loads it just in time.
        if (e.type === "run_end" && e.run === 1) b.double.state.instances.clear();
      },
    },
  );
  assert.equal(summary.outcome, "completed");
  const ends = ofType(events, "run_end");
  assert.equal(ends.filter((e) => e.excluded).length, 1);
  assert.match(
    ends[1]!.excluded!,
    /^excluded from the statistics: the server loaded the model during the run \(\d+ ms\); TTFT \d+ ms against a median of \d+ ms$/,
  );
  const row = b.store.allResults()[0]!;
  assert.equal(row.runs_ok, 2);
  assert.equal(row.runs_excluded, 1);
  const runs = b.store.runsOf(row.id);
  assert.deepEqual(runs.map((r) => r.status), ["ok", "excluded", "ok"]);
  const okTtfts = runs.filter((r) => r.status === "ok").map((r) => r.ttft_ms as number);
  assert.equal(row.ttft_ms_mean, (okTtfts[0]! + okTtfts[1]!) / 2, "statistics without it");
  assert.match(String(row.warnings_json), /run 2 excluded from the statistics/);
  const end = ofType(events, "model_end")[0]!;
  assert.equal(end.figures?.runs_excluded, 1);
});
