import assert from "node:assert/strict";
import { fillerText, PromptBuilder } from "../../../lib/bench/prompt_builder.ts";
import { AppError } from "../../../lib/error.ts";

/** A tokenizer of the test: 5 template tokens, 1 per word, 2 for every "about". */
const counter = (calls: string[]) => (content: string) => {
  calls.push(content);
  const words = content.split(" ").slice(1);
  return Promise.resolve(5 + 1 + words.reduce((n, w) => n + (w === "about" ? 2 : 1), 0));
};

Deno.test("PromptBuilder finds the exact length with the server's count and reuses it", async () => {
  const calls: string[] = [];
  const b = new PromptBuilder(200, "tokenizer", counter(calls));
  const first = await b.build("aaaa1111");
  assert.equal(first.tokens, 200);
  assert.equal(first.exact, true);
  assert.ok(first.content.startsWith("[aaaa1111] the of and"));
  const before = calls.length;
  const second = await b.build("bbbb2222");
  assert.equal(second.tokens, 200);
  assert.ok(calls.length - before <= 2, "the next prompt starts from the word count found");
});

Deno.test("PromptBuilder refuses a length shorter than the template and nonce", async () => {
  const b = new PromptBuilder(3, "tokenizer", counter([]));
  await assert.rejects(
    () => b.build("n"),
    (e: unknown) => e instanceof AppError && /--prompt-tokens 7 or more/.test(e.message),
  );
});

Deno.test("a calibrated PromptBuilder probes once per length, then reuses the word count", async () => {
  const calls: string[] = [];
  const b = new PromptBuilder(120, "calibrated", counter(calls));
  const first = await b.build("x");
  assert.equal(first.tokens, 120);
  assert.equal(first.exact, false, "calibrated lengths are approximate");
  const probes = calls.length;
  const next = await b.build("y");
  assert.equal(calls.length, probes, "no more probes");
  assert.equal(next.content, fillerText("y", next.content.split(" ").length - 1));
});
