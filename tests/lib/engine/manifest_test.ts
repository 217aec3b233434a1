import assert from "node:assert/strict";
import { MANIFEST_VERSION, parseManifest } from "../../../lib/engine/manifest.ts";

const model = {
  name: "tiny-a",
  file: "tiny-a.gguf",
  sizeBytes: 17_000_000,
  params: 4_200_000,
  quantization: "F32",
  architecture: "llama",
  trainContext: 128,
  seed: 1,
  config: {
    dim: 64,
    hiddenDim: 176,
    layers: 2,
    heads: 4,
    kvHeads: 4,
    vocabSize: 32000,
    seqLen: 256,
  },
  vocabFrom: "ggml-vocab-llama-spm.gguf",
};
const manifest = {
  version: MANIFEST_VERSION,
  specs: "abcd0123",
  llamaCppCommit: "de3ff81",
  createdAt: "2026-01-01T00:00:00.000Z",
  models: [model],
};

Deno.test("parseManifest() accepts a manifest as the setup writes it", () => {
  const parsed = parseManifest(JSON.parse(JSON.stringify(manifest)));
  assert.deepEqual(parsed, manifest);
});

Deno.test("parseManifest() names the field that is wrong", async (t) => {
  await t.step("unsupported version", () => {
    assert.throws(() => parseManifest({ ...manifest, version: 99 }), /version/);
  });
  await t.step("models not a list", () => {
    assert.throws(() => parseManifest({ ...manifest, models: {} }), /models/);
  });
  await t.step("size not a number", () => {
    assert.throws(
      () => parseManifest({ ...manifest, models: [{ ...model, sizeBytes: "1" }] }),
      /sizeBytes/,
    );
  });
  await t.step("not F32", () => {
    assert.throws(
      () => parseManifest({ ...manifest, models: [{ ...model, quantization: "Q4_0" }] }),
      /F32/,
    );
  });
  await t.step("not an object", () => {
    assert.throws(() => parseManifest(null), TypeError);
  });
});
