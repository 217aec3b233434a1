import assert from "node:assert/strict";
import { join } from "node:path";
import { CONVERSATIONS, datasetText, makeDataset } from "../../tools/make_dataset.ts";

Deno.test("the committed dataset is what tools/make_dataset.ts generates", async () => {
  const path = join(import.meta.dirname!, "../../data/sharegpt_small.json");
  assert.equal(await Deno.readTextFile(path), datasetText());
});

Deno.test("the generated conversations are a human question and a reply of varied lengths", () => {
  const d = makeDataset();
  assert.equal(d.length, CONVERSATIONS);
  assert.ok(
    d.every((c) => c.conversations[0]!.from === "human" && c.conversations[1]!.from === "gpt"),
  );
  const replies = d.map((c) => c.conversations[1]!.value.length);
  assert.ok(Math.max(...replies) > 5 * Math.min(...replies), "reply lengths spread");
});
