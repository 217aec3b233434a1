import assert from "node:assert/strict";
import { llama2cHeader } from "../../../lib/engine/llama2c.ts";
import { ggufParamCount, specsFingerprint, TINY_MODELS } from "../../../lib/engine/model_specs.ts";

Deno.test("TINY_MODELS holds two valid llama2.c shapes with distinct names and sizes", () => {
  assert.ok(TINY_MODELS.length >= 2);
  assert.equal(new Set(TINY_MODELS.map((m) => m.name)).size, TINY_MODELS.length);
  for (const m of TINY_MODELS) {
    llama2cHeader(m.config);
    assert.equal(m.config.vocabSize, 32000, "llama SPM vocabulary size");
  }
  const [a, b] = TINY_MODELS.map((m) => ggufParamCount(m.config));
  assert.ok(b! > 2 * a!, "the second model is clearly bigger");
});

Deno.test("ggufParamCount() counts embedding and output matrices separately", () => {
  const c = { dim: 4, hiddenDim: 8, layers: 1, heads: 2, kvHeads: 1, vocabSize: 10, seqLen: 4 };
  // embd 40 + output 40 + norm 4 + q/o 32 + k/v 16 + ffn 96 + norms 8
  assert.equal(ggufParamCount(c), 236);
});

Deno.test("specsFingerprint() is stable and changes with any field", () => {
  const base = specsFingerprint(TINY_MODELS);
  assert.equal(base, specsFingerprint(TINY_MODELS.map((m) => ({ ...m }))));
  const changed = TINY_MODELS.map((m, i) => (i === 0 ? { ...m, seed: m.seed + 1 } : m));
  assert.notEqual(base, specsFingerprint(changed));
  assert.match(base, /^[0-9a-f]{8}$/);
});
