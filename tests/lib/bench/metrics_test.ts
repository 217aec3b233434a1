import assert from "node:assert/strict";
import {
  aggregateRuns,
  decodeSpeed,
  gapsOf,
  interTokenGaps,
  runMetrics,
} from "../../../lib/bench/metrics.ts";
import { latencyTable } from "../../../lib/bench/table.ts";
import type { ChatResult } from "../../../lib/modelserver/backend.ts";
import { consumeRestChat } from "../../../lib/modelserver/lmstudio_rest_stream.ts";
import { consumeOpenAiChat } from "../../../lib/modelserver/openai_stream.ts";
import type { SseEvent } from "../../../lib/modelserver/sse.ts";
import type { ResultRow } from "../../../lib/store/mod.ts";
import { bench, testOptions } from "./_harness.ts";

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

Deno.test("a stream more than 25 % off the server's own decode speed keeps the server's figure", () => {
  const burst = runMetrics(result({ tokens_per_second: 40 })); // the stream says 100
  assert.deepEqual(
    [burst.tokens_per_sec, burst.client_tokens_per_sec, burst.decode_source, burst.tpot_ms],
    [40, 100, "server", 25],
  );
  const close = runMetrics(result({ tokens_per_second: 80 })); // 25 % off exactly: agrees
  assert.deepEqual([close.tokens_per_sec, close.decode_source], [100, "client"]);
});

Deno.test("aggregates summarise the runs and give speed per GiB and per billion parameters", () => {
  const runs = [
    runMetrics(result()),
    runMetrics(result({ tokens_per_second: 52 }, { total_ms: 2100 })),
  ];
  const row = aggregateRuns(runs, 4, 8);
  assert.equal(row.tokens_per_sec_mean, 75); // 100 and 50
  assert.equal(row.tokens_per_sec_min, 50);
  assert.equal(row.tokens_per_sec_per_gb, 75 / 4);
  assert.equal(row.tokens_per_sec_per_billion_params, 75 / 8);
  assert.equal(row.server_tokens_per_sec_mean, 78);
  assert.equal(row.tokens_out, 100);
  assert.equal(row.tokens_per_sec_n, 2, "both runs kept a decode speed");
  const leftOut = aggregateRuns([...runs, { ...runs[0]!, tokens_per_sec: null }], 4, 8);
  assert.equal(leftOut.tokens_per_sec_n, 2, "a run left out of the mean is not in its n");
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

// Latency: the gaps between tokens, TPOT and the percentiles.

function timedResult(times: number[], total: number): ChatResult {
  return {
    text: "x",
    stats: {
      tokens_in: 10,
      tokens_out: times.length,
      time_to_first_token_ms: null,
      total_time_ms: null,
      tokens_per_second: null,
    },
    client: {
      ttft_ms: times[0]!,
      last_token_ms: times.at(-1)!,
      total_ms: total,
      tokens_out: times.length,
      token_times_ms: times,
    },
    response_id: null,
  };
}

Deno.test("interTokenGaps() keeps every gap between token events", () => {
  assert.deepEqual(interTokenGaps([100, 110, 125.004, 126]), [10, 15, 1]);
  assert.deepEqual(interTokenGaps([5]), []);
  assert.deepEqual(interTokenGaps(undefined), []);
});

Deno.test("a run's TPOT is 1000 ÷ its decode speed and its gaps are stored", () => {
  const m = runMetrics(timedResult([100, 110, 120, 130, 140], 150));
  assert.equal(m.tokens_per_sec, 100, "4 tokens after the first in 40 ms");
  assert.equal(m.tpot_ms, 10);
  assert.deepEqual(gapsOf(m), [10, 10, 10, 10]);
});

Deno.test("per model the gaps are pooled and TTFT, TPOT, ITL and latency get p90 and p99", () => {
  const runs = [
    runMetrics(timedResult([100, 110, 120, 130], 140)),
    runMetrics(timedResult([200, 210, 220, 320], 330)),
    runMetrics(timedResult([150, 160, 170, 180], 190)),
  ];
  const row = aggregateRuns(runs, null, null);
  assert.equal(row.itl_ms_median, 10);
  assert.equal(row.itl_ms_max, 100, "one slow token");
  assert.ok((row.itl_ms_p99 as number) > 90 && (row.itl_ms_p99 as number) <= 100);
  assert.equal(row.itl_ms_mean, (10 * 8 + 100) / 9);
  assert.equal(row.ttft_ms_median, 150);
  assert.ok((row.ttft_ms_p90 as number) > 150 && (row.ttft_ms_p99 as number) <= 200);
  assert.equal(typeof row.tpot_ms_p99, "number");
  assert.ok((row.total_ms_p99 as number) <= 330);
  const table = latencyTable([
    { ...row, model_name: "org/model", quantization: "q4", id: 1 } as unknown as ResultRow,
  ]);
  assert.match(
    table,
    /^Latency \(ms\)\s+Quant\s+TTFT mean\s+TTFT p50\s+TTFT p90\s+TTFT p99\s+TPOT/,
  );
  assert.match(table, /^org\/model\s+q4\s+150\.00\s+150\.00/m);
});

Deno.test("a benchmark against the double stores each run's gaps and the distributions", async () => {
  await using b = await bench({ tokenDelayMs: 2 });
  const { summary } = await b.run(
    "rest",
    testOptions({ filters: { include_models: "qwen/qwen3-4b@q4_k_m" } }),
  );
  assert.equal(summary.outcome, "completed");
  const row = b.store.allResults()[0]!;
  for (const run of b.store.runsOf(row.id)) {
    assert.equal(
      gapsOf(run).length,
      (run.tokens_out as number) - 1,
      "one gap per token after the first",
    );
    assert.ok((run.tpot_ms as number) > 0);
  }
  for (const metric of ["ttft_ms", "tpot_ms", "itl_ms", "total_ms"]) {
    assert.ok((row[`${metric}_p99`] as number) >= (row[`${metric}_median`] as number), metric);
    assert.ok((row[`${metric}_p90`] as number) > 0, metric);
  }
});

// Decode speed from recorded-like streams, replayed on a fake clock through the real stream
// consumers: llama-server's chat-completions chunks (role preamble, one chunk per token, the
// closing chunk, usage and `timings`), with the first deltas empty, empty deltas in mid-stream
// and tokens arriving in bursts; LM Studio's REST events; OpenAI's own preamble.

type Timed = [ms: number, data: unknown, event?: string];

/** The events as the stream consumer sees them, the clock set to each event's time. */
function replay(events: Timed[], clock: { t: number }): AsyncIterable<SseEvent> {
  return (async function* () {
    for (const [ms, data, event] of events) {
      clock.t = ms;
      yield {
        event: event ?? null,
        data: typeof data === "string" ? data : JSON.stringify(data),
        id: null,
      };
    }
  })();
}

type Consumer = (
  events: AsyncIterable<SseEvent>,
  ctx: { t0: number; where: string; now: () => number },
) => Promise<ChatResult>;

/** The consumer's result for the events replayed on a fake clock starting at 0. */
function consumed(consume: Consumer, events: Timed[]): Promise<ChatResult> {
  const clock = { t: 0 };
  return consume(replay(events, clock), { t0: 0, where: "127.0.0.1:1", now: () => clock.t });
}

interface LlamaRun {
  tokens?: number;
  prefillMs?: number;
  perTokenMs?: number;
  /** Tokens at the start whose chunk has `content: ""`. */
  emptyFirst?: number;
  /** Every n-th token's chunk is a bare `delta: {}`. */
  bareEvery?: number;
  /**
   * Tokens after the first read together (one network read): they share the time of the last
   * one. (llama-server flushes every token, so the first one comes alone.)
   */
  burst?: number;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, finish_reason: finish, delta }],
  object: "chat.completion.chunk",
});

/**
 * A llama-server stream: the server samples token i at prefill + i × perToken; its
 * `predicted_ms` spans the generation of all n tokens (n × perToken), so
 * `predicted_per_second` is 1000 / perToken.
 */
function llamaStream(o: LlamaRun = {}): { events: Timed[]; serverRate: number } {
  const n = o.tokens ?? 256;
  const prefill = o.prefillMs ?? 14;
  const per = o.perTokenMs ?? 1;
  const burst = o.burst ?? 1;
  const events: Timed[] = [[prefill - 0.5, chunk({ role: "assistant", content: null })]];
  for (let i = 0; i < n; i++) {
    const sampled = prefill + i * per;
    const read = i === 0 ? sampled : prefill + Math.min(n - 1, Math.ceil(i / burst) * burst) * per;
    const bare = o.bareEvery !== undefined && i > 0 && i % o.bareEvery === 0;
    const delta = bare ? {} : { content: i < (o.emptyFirst ?? 0) ? "" : `t${i} ` };
    events.push([Math.max(sampled, read), chunk(delta)]);
  }
  const end = prefill + (n - 1) * per + 0.3;
  events.push([end, chunk({}, "length")]);
  events.push([end, {
    choices: [],
    usage: { completion_tokens: n, prompt_tokens: 45 },
    timings: {
      prompt_n: 45,
      prompt_ms: prefill,
      predicted_n: n,
      predicted_ms: n * per,
      predicted_per_second: 1000 / per,
    },
  }]);
  events.push([end + 0.1, "[DONE]"]);
  return { events, serverRate: 1000 / per };
}

async function measureLlama(o: LlamaRun) {
  const { events, serverRate } = llamaStream(o);
  const result = await consumed(consumeOpenAiChat, events);
  return { metrics: runMetrics(result), result, serverRate };
}

const within = (actual: number | null, expected: number, pct: number) =>
  actual !== null && Math.abs(actual - expected) / expected * 100 <= pct;

Deno.test("decode speed matches llama-server's timings on a plain stream", async () => {
  const { metrics, result, serverRate } = await measureLlama({});
  assert.equal(result.client.tokens_out, 256);
  assert.equal(metrics.ttft_ms, 14);
  assert.ok(within(metrics.tokens_per_sec, serverRate, 1), `${metrics.tokens_per_sec}`);
});

Deno.test("a stream whose first deltas are empty starts the clock at its first token, not its first text", async () => {
  const { metrics, result, serverRate } = await measureLlama({ emptyFirst: 240 });
  assert.equal(metrics.ttft_ms, 14, "TTFT is the first event carrying a token");
  assert.equal(result.client.tokens_out, 256);
  assert.ok(result.text.startsWith("t240 "));
  assert.ok(within(metrics.tokens_per_sec, serverRate, 1), `${metrics.tokens_per_sec}`);
  // What the text-only clock made of it: 256 tokens over the last 16 ms.
  const textOnly = decodeSpeed(256, { ttft_ms: 254, total_ms: 270.3, tokens_out: 16 });
  assert.ok(textOnly! > 10 * serverRate);
});

Deno.test("bare deltas in mid-stream and tokens read in bursts keep the decode speed within 1%", async () => {
  for (const o of [{ bareEvery: 7 }, { burst: 8 }, { burst: 8, emptyFirst: 3, bareEvery: 5 }]) {
    const { metrics, serverRate } = await measureLlama(o);
    assert.ok(within(metrics.tokens_per_sec, serverRate, 1), `${JSON.stringify(o)}`);
  }
});

Deno.test("tokens that came in the same read as the first one leave the count: a late first read does not inflate the speed", async () => {
  // The client was 20 ms late for the first token: tokens 0..20 arrive in one read at 34 ms.
  const { events, serverRate } = llamaStream({});
  const late = events.map(([ms, data, event]): Timed =>
    ms < 34 && typeof data === "object" && (data as { choices?: unknown[] }).choices?.length
      ? [34, data, event]
      : [ms, data, event]
  );
  const result = await consumed(consumeOpenAiChat, late);
  assert.equal(result.client.ttft_ms, 34);
  assert.equal(result.client.first_read_tokens, 21);
  const m = runMetrics(result);
  assert.ok(within(m.tokens_per_sec, serverRate, 1), `${m.tokens_per_sec}`);
  // Counted from the first token alone: 255 tokens over 235 ms, 8.5% too fast.
  assert.ok(!within(decodeSpeed(256, { ...result.client, first_read_tokens: 1 }), serverRate, 5));
});

Deno.test("OpenAI's role preamble with an empty content is not a token", async () => {
  const events: Timed[] = [
    [5, chunk({ role: "assistant", content: "", refusal: null })],
    [40, chunk({ content: "Hello" })],
    [50, chunk({ content: " world" })],
    [60, chunk({ content: "!" })],
    [61, chunk({}, "stop")],
    [62, { choices: [], usage: { completion_tokens: 3, prompt_tokens: 9 } }],
    [63, "[DONE]"],
  ];
  const r = await consumed(consumeOpenAiChat, events);
  assert.equal(r.client.ttft_ms, 40);
  assert.equal(r.client.last_token_ms, 60);
  assert.equal(r.client.tokens_out, 3);
  assert.equal(runMetrics(r).tokens_per_sec, 100, "2 tokens after the first in 20 ms");
});

Deno.test("LM Studio's REST stream with empty first deltas is measured from its first delta", async () => {
  const events: Timed[] = [[3, { type: "chat.start" }, "chat.start"]];
  for (let i = 0; i < 100; i++) {
    events.push([
      20 + i * 2,
      { type: "message.delta", content: i < 90 ? "" : "x" },
      "message.delta",
    ]);
  }
  events.push([220, {
    type: "chat.end",
    result: {
      output: [],
      stats: { input_tokens: 9, total_output_tokens: 100, tokens_per_second: 500 },
    },
  }, "chat.end"]);
  const r = await consumed(consumeRestChat, events);
  assert.equal(r.client.ttft_ms, 20);
  assert.equal(r.client.last_token_ms, 218);
  assert.ok(within(runMetrics(r).tokens_per_sec, 500, 1), `${runMetrics(r).tokens_per_sec}`);
});

Deno.test("without the last token's time or with one token, decode speed falls back to total − TTFT", () => {
  assert.equal(decodeSpeed(100, { ttft_ms: 100, total_ms: 1100, tokens_out: 100 }), 100);
  assert.equal(
    decodeSpeed(1, { ttft_ms: 100, last_token_ms: 100, total_ms: 600, tokens_out: 1 }),
    2,
  );
  assert.equal(decodeSpeed(10, { ttft_ms: null, total_ms: 600, tokens_out: 0 }), null);
});
