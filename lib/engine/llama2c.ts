/**
 * Writes a random-weight checkpoint in the llama2.c "legacy" format: a header of seven little-endian
 * int32 values (dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len) followed by
 * float32 tensors in a fixed order. llama.cpp's `llama-convert-llama2c-to-ggml` turns such a file
 * into a GGUF model when given a vocabulary to copy.
 *
 * @module
 */

import { createRandom } from "./prng.ts";

/** The hyper-parameters of a llama2.c checkpoint. */
export interface Llama2cConfig {
  /** Embedding width. */
  dim: number;
  /** Feed-forward width. */
  hiddenDim: number;
  /** Transformer blocks. */
  layers: number;
  /** Attention heads (must divide `dim`). */
  heads: number;
  /** Key/value heads (must divide `heads`). */
  kvHeads: number;
  /** Vocabulary size (32000 for llama's SentencePiece vocabulary). */
  vocabSize: number;
  /** Maximum sequence length recorded in the header. */
  seqLen: number;
}

/** How a tensor is filled. */
export type TensorInit = "random" | "ones" | "zeros";

/** One tensor of the checkpoint, in file order. */
export interface Llama2cTensor {
  /** llama2.c's name for it. */
  name: string;
  /** Number of float32 values. */
  count: number;
  /** Fill rule. */
  init: TensorInit;
  /** Half-width of the uniform range for random tensors. */
  scale: number;
}

/** Size of the header in bytes. */
export const LLAMA2C_HEADER_BYTES = 7 * 4;

/**
 * Checks the shape rules the converter relies on.
 *
 * @throws {RangeError} when a value is not a positive integer or the heads do not divide evenly
 */
export function validateLlama2cConfig(c: Llama2cConfig): void {
  for (const [key, value] of Object.entries(c)) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new RangeError(`Cannot use llama2.c config: '${key}' must be a positive integer`);
    }
  }
  if (c.dim % c.heads !== 0) {
    throw new RangeError("Cannot use llama2.c config: heads must divide dim");
  }
  if (c.heads % c.kvHeads !== 0) {
    throw new RangeError("Cannot use llama2.c config: kvHeads must divide heads");
  }
}

/** The header bytes (shared classifier: a positive vocab size). */
export function llama2cHeader(c: Llama2cConfig): Uint8Array {
  validateLlama2cConfig(c);
  const bytes = new Uint8Array(LLAMA2C_HEADER_BYTES);
  const view = new DataView(bytes.buffer);
  const values = [c.dim, c.hiddenDim, c.layers, c.heads, c.kvHeads, c.vocabSize, c.seqLen];
  values.forEach((v, i) => view.setInt32(i * 4, v, true));
  return bytes;
}

/** The tensors of the checkpoint in file order (the classifier shares the embedding). */
export function llama2cTensors(c: Llama2cConfig): Llama2cTensor[] {
  validateLlama2cConfig(c);
  const { dim: d, hiddenDim: h, layers: l, vocabSize: v } = c;
  const kvDim = (d * c.kvHeads) / c.heads;
  const headSize = d / c.heads;
  const rnd = (name: string, count: number, fanIn: number): Llama2cTensor => ({
    name,
    count,
    init: "random",
    scale: Math.sqrt(3 / fanIn),
  });
  return [
    rnd("token_embedding_table", v * d, 1),
    { name: "rms_att_weight", count: l * d, init: "ones", scale: 0 },
    rnd("wq", l * d * d, d),
    rnd("wk", l * d * kvDim, d),
    rnd("wv", l * d * kvDim, d),
    rnd("wo", l * d * d, d),
    { name: "rms_ffn_weight", count: l * d, init: "ones", scale: 0 },
    rnd("w1", l * h * d, d),
    rnd("w2", l * d * h, h),
    rnd("w3", l * h * d, d),
    { name: "rms_final_weight", count: d, init: "ones", scale: 0 },
    // RoPE tables (real and imaginary halves); the converter skips them.
    { name: "freq_cis", count: c.seqLen * headSize, init: "zeros", scale: 0 },
  ];
}

/** The exact file size in bytes. */
export function llama2cFileSize(c: Llama2cConfig): number {
  return LLAMA2C_HEADER_BYTES + 4 * llama2cTensors(c).reduce((n, t) => n + t.count, 0);
}

/** Receives the file in chunks, in order. */
export type ByteSink = (chunk: Uint8Array) => Promise<void>;

/** Options of {@linkcode writeLlama2cCheckpoint}. */
export interface WriteCheckpointOptions {
  /** Seed of the weights. @default 1 */
  seed?: number;
  /** Floats per chunk handed to the sink. @default 262144 */
  chunkFloats?: number;
}

/**
 * Streams a seeded random checkpoint to `sink`: the same config and seed give the same bytes.
 *
 * @returns the number of bytes written
 * @example Into memory
 * ```ts
 * import assert from "node:assert/strict";
 * import { llama2cFileSize, writeLlama2cCheckpoint } from "./llama2c.ts";
 * const c = { dim: 8, hiddenDim: 16, layers: 1, heads: 2, kvHeads: 2, vocabSize: 10, seqLen: 4 };
 * let n = 0;
 * await writeLlama2cCheckpoint((b) => Promise.resolve(void (n += b.length)), c);
 * assert.equal(n, llama2cFileSize(c));
 * ```
 */
export async function writeLlama2cCheckpoint(
  sink: ByteSink,
  config: Llama2cConfig,
  options: WriteCheckpointOptions = {},
): Promise<number> {
  const random = createRandom(options.seed ?? 1);
  const chunk = new Float32Array(options.chunkFloats ?? 262_144);
  const header = llama2cHeader(config);
  await sink(header);
  let written = header.length;
  for (const tensor of llama2cTensors(config)) {
    for (let left = tensor.count; left > 0;) {
      const part = chunk.subarray(0, Math.min(left, chunk.length));
      if (tensor.init === "random") random.fill(part, tensor.scale);
      else part.fill(tensor.init === "ones" ? 1 : 0);
      // Copy: the sink may keep the bytes after we refill the chunk.
      await sink(
        new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength)),
      );
      written += part.byteLength;
      left -= part.length;
    }
  }
  return written;
}
