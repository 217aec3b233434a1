/**
 * A stream that arrives in one burst (a buffering proxy, a busy machine) against the LM Studio
 * double's fault `burstStream`: the decode speed of each run is the server's own figure where the
 * server gives one (REST `stats.tokens_per_second`), else it is left out of the mean (OpenAI
 * `/v1` has no figure); the runs and the result say why (lib/bench/burst.ts).
 */
import assert from "node:assert/strict";
import { bench, testOptions } from "../lib/bench/_harness.ts";

const QWEN = "qwen/qwen3-4b@q4_k_m";
const ONLY_QWEN = testOptions({ filters: { include_models: QWEN } });

Deno.test("a burst stream keeps the server's own decode speed, with the stream's stored beside it", async () => {
  await using b = await bench({ tokenDelayMs: 10 });
  b.double.faults.burstStream = true;
  const { summary } = await b.run("rest", ONLY_QWEN);
  assert.deepEqual(summary.tested, [QWEN]);
  const row = b.store.allResults()[0]!;
  const runs = b.store.runsOf(row.id).filter((r) => r.status === "ok");
  assert.equal(runs.length, 2);
  for (const r of runs) {
    assert.equal(r.decode_source, "server");
    assert.equal(r.tokens_per_sec, r.server_tokens_per_sec, "the server's figure is kept");
    assert.ok(
      Number(r.client_tokens_per_sec) > 1.25 * Number(r.server_tokens_per_sec),
      `the stream's figure, far above: ${r.client_tokens_per_sec} vs ${r.server_tokens_per_sec}`,
    );
  }
  const mean = runs.reduce((s, r) => s + Number(r.server_tokens_per_sec), 0) / runs.length;
  assert.ok(Math.abs(Number(row.tokens_per_sec_mean) - mean) < 1e-9, "the mean is the server's");
  assert.match(String(row.warnings_json), /2 of 2 run\(s\) streamed a decode speed more than 25%/);
});

Deno.test("a burst stream without a server figure is left out of the mean, and the result says so", async () => {
  await using b = await bench({ tokenDelayMs: 10 });
  b.double.faults.burstStream = true;
  // LM Studio's /v1 lists a model without its quantization.
  const only = testOptions({ filters: { include_models: "^qwen/qwen3-4b$" } });
  const { summary } = await b.run("openai", only);
  assert.deepEqual(summary.tested, ["qwen/qwen3-4b"], JSON.stringify(summary));
  const row = b.store.allResults()[0]!;
  const runs = b.store.runsOf(row.id).filter((r) => r.status === "ok");
  assert.equal(runs.length, 2);
  for (const r of runs) {
    assert.equal(r.decode_source, "left_out");
    assert.equal(r.tokens_per_sec, null);
    assert.ok(Number(r.client_tokens_per_sec) > 0, "the stream's figure is still stored");
  }
  assert.equal(row.tokens_per_sec_mean, null, "no made-up speed in the headline");
  assert.match(String(row.warnings_json), /left out of the mean/);
  assert.equal(row.status, "partial", "no decode speed kept: not a result to keep as measured");
  const again = await b.run("openai", only);
  assert.deepEqual(again.summary.tested, ["qwen/qwen3-4b"], "no cache hit: measured again");
});
