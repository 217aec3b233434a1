import assert from "node:assert/strict";
import { aggregateRuns, runMetrics } from "../../../lib/bench/metrics.ts";
import type { ChatResult } from "../../../lib/modelserver/backend.ts";

function result(
  over: Partial<ChatResult["stats"]> = {},
  client: Partial<ChatResult["client"]> = {},
) {
  return {
    text: "hi",
    response_id: null,
    stats: {
      tokens_in: 50,
      tokens_out: 100,
      time_to_first_token_ms: 90,
      total_time_ms: 1050,
      tokens_per_second: 104,
      ...over,
    },
    client: { ttft_ms: 100, total_ms: 1100, tokens_out: 99, ...client },
  } satisfies ChatResult;
}

Deno.test("decode, end-to-end and prefill speeds follow DECISIONS.md", () => {
  const m = runMetrics(result());
  assert.equal(m.tokens_per_sec, 100, "100 tokens ÷ (1100 − 100) ms");
  assert.equal(m.e2e_tokens_per_sec, 100 / 1.1);
  assert.equal(m.prefill_tokens_per_sec, 500, "50 prompt tokens ÷ 100 ms");
  assert.equal(m.server_tokens_per_sec, 104);
  assert.equal(m.server_ttft_ms, 90);
  assert.equal(m.server_total_ms, 1050);
  assert.equal(m.tokens_in, 50);
});

Deno.test("the client's token count is used when the server reports none", () => {
  const m = runMetrics(result({ tokens_out: 0, tokens_in: 0 }));
  assert.equal(m.tokens_out, 99);
  assert.equal(m.tokens_in, null);
  assert.equal(m.prefill_tokens_per_sec, null);
});

Deno.test("without a first token there is no decode speed", () => {
  const m = runMetrics(result({}, { ttft_ms: null }));
  assert.equal(m.tokens_per_sec, null);
  assert.equal(typeof m.e2e_tokens_per_sec, "number");
});

Deno.test("aggregates summarise the runs and give speed per GiB and per billion parameters", () => {
  const runs = [runMetrics(result()), runMetrics(result({}, { total_ms: 2100 }))];
  const row = aggregateRuns(runs, 4, 8);
  assert.equal(row.tokens_per_sec_mean, 75); // 100 and 50
  assert.equal(row.tokens_per_sec_min, 50);
  assert.equal(row.tokens_per_sec_per_gb, 75 / 4);
  assert.equal(row.tokens_per_sec_per_billion_params, 75 / 8);
  assert.equal(row.server_tokens_per_sec_mean, 104);
  assert.equal(row.tokens_out, 100);
  const unknown = aggregateRuns(runs, null, null);
  assert.equal(unknown.tokens_per_sec_per_gb, null);
  assert.equal(unknown.tokens_per_sec_per_billion_params, null);
});

Deno.test("no stored interval of a per-run metric reaches below zero, however far apart the runs", () => {
  // One slow first token among fast ones (a cold cache): TTFT 40, 45 and 950 ms.
  const runs = [40, 45, 950].map((ttft) =>
    runMetrics(result({ time_to_first_token_ms: ttft }, { ttft_ms: ttft, total_ms: ttft + 1000 }))
  );
  const row = aggregateRuns(runs, 4, 8);
  assert.equal(row.ttft_ms_ci_low, 0);
  assert.ok((row.ttft_ms_ci_high as number) > 950);
  const lows = Object.entries(row).filter(([k]) => k.endsWith("_ci_low"));
  assert.ok(lows.length >= 8);
  for (const [k, v] of lows) assert.ok(v === null || (v as number) >= 0, `${k} = ${v}`);
});
