/**
 * The tiny random-weight models `deno task engine:setup` generates: two sizes, so a benchmark run
 * against the real engine sees two clearly different speeds. Both use llama's SentencePiece
 * vocabulary (32000 tokens) copied from the llama.cpp source, so prompts tokenize like a real model.
 *
 * @module
 */

import type { Llama2cConfig } from "./llama2c.ts";

/** A model to generate. */
export interface ModelSpec {
  /** Router model id and file stem (`<name>.gguf`). */
  name: string;
  /** Seed of the random weights. */
  seed: number;
  /** Shape of the llama2.c checkpoint. */
  config: Llama2cConfig;
}

/** The vocabulary GGUF (inside the llama.cpp source's `models/`) the models copy. */
export const VOCAB_FILE = "ggml-vocab-llama-spm.gguf";

/**
 * Context length set in every generated GGUF (`llama.context_length`). The converter writes 128 and
 * llama-server caps each slot at that, which would limit prompt plus output to 128 tokens; the
 * setup patches the value after conversion (random weights do not care about RoPE range).
 */
export const MODEL_CONTEXT_LENGTH = 4096;

/** The generated models, smallest first. */
export const TINY_MODELS: readonly ModelSpec[] = [
  {
    name: "tiny-a",
    seed: 1001,
    config: {
      dim: 64,
      hiddenDim: 176,
      layers: 2,
      heads: 4,
      kvHeads: 4,
      vocabSize: 32000,
      seqLen: 256,
    },
  },
  {
    name: "tiny-b",
    seed: 2002,
    config: {
      dim: 192,
      hiddenDim: 512,
      layers: 4,
      heads: 6,
      kvHeads: 6,
      vocabSize: 32000,
      seqLen: 256,
    },
  },
];

/**
 * Parameters of the converted GGUF: the converter always writes a separate output matrix (a copy of
 * the embedding), so the vocabulary matrix counts twice.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ggufParamCount, TINY_MODELS } from "./model_specs.ts";
 * assert.ok(ggufParamCount(TINY_MODELS[0]!.config) > 4_000_000);
 * ```
 */
export function ggufParamCount(c: Llama2cConfig): number {
  const kvDim = (c.dim * c.kvHeads) / c.heads;
  const perLayer = 2 * c.dim * c.dim + 2 * c.dim * kvDim + 3 * c.dim * c.hiddenDim + 2 * c.dim;
  return 2 * c.vocabSize * c.dim + c.dim + c.layers * perLayer;
}

/** A short stable fingerprint of the specs (stored in the manifest to detect changes). */
export function specsFingerprint(specs: readonly ModelSpec[]): string {
  const text = JSON.stringify([MODEL_CONTEXT_LENGTH, specs.map((s) => [s.name, s.seed, s.config])]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}
