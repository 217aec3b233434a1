import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CHARS_PER_TOKEN,
  loadDataset,
  parseDataset,
  sampleEntries,
} from "../../../lib/bench/dataset.ts";
import { UsageError } from "../../../lib/error.ts";

const shareGpt = (convs: unknown[]) => JSON.stringify(convs.map((c) => ({ conversations: c })));

Deno.test("a ShareGPT file gives the first human turn as prompt and the reply's length as target", () => {
  const text = shareGpt([
    [
      { from: "system", value: "be brief" },
      { from: "human", value: "What is a tree?" },
      { from: "gpt", value: "x".repeat(41) },
      { from: "human", value: "And a bush?" },
      { from: "gpt", value: "y" },
    ],
    [{ from: "gpt", value: "no question" }],
    [{ from: "human", value: "no reply" }],
  ]);
  const d = parseDataset(text, "s.json");
  assert.equal(d.format, "sharegpt");
  assert.deepEqual(d.entries, [{
    prompt: "What is a tree?",
    output_tokens: Math.ceil(41 / CHARS_PER_TOKEN),
    reply: "x".repeat(41),
  }]);
  assert.equal(d.skipped, 2);
});

Deno.test("a JSON Lines file gives each line's prompt and output tokens", () => {
  const d = parseDataset('{"prompt":"a","output_tokens":5}\n\n{"prompt":"b"}\n', "r.jsonl");
  assert.equal(d.format, "jsonl");
  assert.deepEqual(d.entries, [
    { prompt: "a", output_tokens: 5 },
    { prompt: "b", output_tokens: null },
  ]);
});

Deno.test("a malformed JSON Lines file is refused with the line at fault", () => {
  assert.throws(
    () => parseDataset('{"prompt":"a","output_tokens":5}\n{"prompt": "b",\n', "r.jsonl"),
    (err: unknown) =>
      err instanceof UsageError &&
      /^Cannot read the dataset r\.jsonl: line 2: not JSON/.test(err.message),
  );
  assert.throws(
    () => parseDataset('{"prompt":"a"}\n{"prompt":"b","output_tokens":0}', "r.jsonl"),
    /line 2: "output_tokens" must be an integer ≥ 1/,
  );
  assert.throws(() => parseDataset('{"text":"a"}', "r.jsonl"), /line 1: expected \{"prompt"/);
});

Deno.test("a malformed ShareGPT file is refused with the entry at fault", () => {
  assert.throws(
    () => parseDataset(JSON.stringify([{ conversations: [] }, { turns: [] }]), "s.json"),
    /s\.json: entry 1: expected an object with a "conversations" list/,
  );
  assert.throws(
    () => parseDataset(shareGpt([[{ from: "human", value: "q" }, { from: "gpt" }]]), "s.json"),
    /entry 0, turn 1: expected/,
  );
  assert.throws(() => parseDataset("[{", "s.json"), /s\.json: the file: not JSON/);
});

Deno.test("a sample of N is the same for the same seed and another for another seed", () => {
  const xs = Array.from({ length: 100 }, (_, i) => i);
  const a = sampleEntries(xs, 10, 1);
  assert.deepEqual(sampleEntries(xs, 10, 1), a);
  assert.notDeepEqual(sampleEntries(xs, 10, 2), a);
  assert.equal(new Set(a).size, 10);
  assert.deepEqual(sampleEntries(xs, null, 1), xs);
  assert.throws(
    () => sampleEntries(xs, 101, 1),
    /--dataset-sample 101 is more than the dataset's 100/,
  );
});

Deno.test("the shipped dataset loads, with its content hash, and a missing file is said", async () => {
  const path = join(import.meta.dirname!, "../../../data/sharegpt_small.json");
  const d = await loadDataset(path, 20, 42);
  assert.equal(d.entries.length, 20);
  assert.equal(d.skipped, 0);
  assert.match(d.sha256, /^[0-9a-f]{16}$/);
  assert.ok(d.entries.every((e) => e.prompt.length > 0 && (e.output_tokens ?? 0) >= 1));
  assert.equal((await loadDataset(path, null, 42)).entries.length, 300);
  await assert.rejects(loadDataset("/nonexistent/d.jsonl", null, 1), /no such file/);
});
