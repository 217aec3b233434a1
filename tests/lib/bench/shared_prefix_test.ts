import assert from "node:assert/strict";
import {
  buildSharedPrefix,
  prefixEffect,
  prefixTable,
  prefixText,
} from "../../../lib/bench/shared_prefix.ts";
import type { ResultRow } from "../../../lib/store/mod.ts";

/** A tokenizer double: one token a word, 7 for the chat template. */
const count = (text: string) => Promise.resolve(7 + text.split(/\s+/).filter(Boolean).length);

Deno.test("the shared prefix is counted without the chat template's share and ends with a blank line", async () => {
  const p = await buildSharedPrefix(50, count);
  assert.deepEqual([p.tokens, p.exact], [50, true]);
  assert.equal(p.text, prefixText(50));
  assert.ok(p.text.endsWith("\n\n"));
  // A tokenizer that splits some words in two: the word count is adjusted to the target.
  const split = (text: string) =>
    Promise.resolve(
      3 + text.split(/\s+/).filter(Boolean).reduce((a, w) => a + (w.length > 7 ? 2 : 1), 0),
    );
  const q = await buildSharedPrefix(50, split);
  assert.equal(q.tokens, 50);
  assert.ok(q.text.split(" ").length < 50);
  // No count: N words, said to be uncounted.
  assert.deepEqual(await buildSharedPrefix(12, null), {
    text: prefixText(12),
    tokens: null,
    exact: false,
  });
});

Deno.test("the prefix effect is the first request's TTFT (cold) against the others' (warm)", () => {
  const e = prefixEffect({ tokens: 512, counted: 512 }, [120, 40, null, 44, 42], [
    0,
    512,
    null,
    512,
    512,
  ]);
  assert.equal(e.cold_ttft_ms, 120);
  assert.equal(e.warm_ttft_ms_median, 42);
  assert.equal(e.warm_ttft_ms_mean, 42);
  assert.equal(e.warm_requests, 3, "a failed request is left out");
  assert.deepEqual([e.cold_cached_tokens, e.warm_cached_tokens_mean], [0, 512]);
  const row = {
    model_key: "org/m@q4",
    workload_json: JSON.stringify({ shared_prefix: e }),
  } as unknown as ResultRow;
  const table = prefixTable([row, row])!;
  assert.match(table, /^org\/m@q4\s+512\s+120\.0\s+42\.0\s+42\.0\s+3\s+0\s+512$/m);
  assert.equal(table.split("\n").length, 3, "one line per model, however many cells");
  assert.equal(prefixTable([{ ...row, workload_json: "{}" }]), null);
});
