import assert from "node:assert/strict";
import { generate, type GenerateInput } from "./_lmstudio_gen.ts";

const BASE: GenerateInput = {
  seed: 42,
  model: "m@q4",
  prompt: "Explain",
  maxTokens: 256,
  speedTps: 50,
  prefillTps: 500,
  tokenDelayMs: 10,
};

Deno.test("generate() is deterministic for a seed, model and prompt, and differs when one changes", () => {
  assert.deepEqual(generate(BASE), generate({ ...BASE }));
  assert.notDeepEqual(generate(BASE).tokens, generate({ ...BASE, seed: 43 }).tokens);
  assert.notDeepEqual(generate(BASE).tokens, generate({ ...BASE, prompt: "Other" }).tokens);
});

Deno.test("generate() never exceeds max tokens and reports why it stopped", () => {
  const short = generate({ ...BASE, maxTokens: 3 });
  assert.equal(short.tokens.length, 3);
  assert.equal(short.stopReason, "maxPredictedTokensReached");
  const full = generate({ ...BASE, maxTokens: 10_000 });
  assert.equal(full.stopReason, "eosFound");
  assert.ok(full.tokens.length >= 24 && full.tokens.length < 224);
});

Deno.test("generate() derives speed and delays from the model's nominal speed", () => {
  const slow = generate({ ...BASE, speedTps: 20 });
  const fast = generate({ ...BASE, speedTps: 200 });
  assert.ok(slow.tokensPerSecond < 22 && fast.tokensPerSecond > 180);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  assert.ok(mean(slow.delaysMs) > mean(fast.delaysMs) * 5);
  assert.ok(slow.ttftSeconds > 0.02);
});
