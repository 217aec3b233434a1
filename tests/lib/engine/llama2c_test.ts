import assert from "node:assert/strict";
import {
  LLAMA2C_HEADER_BYTES,
  type Llama2cConfig,
  llama2cFileSize,
  llama2cHeader,
  llama2cTensors,
  writeLlama2cCheckpoint,
} from "../../../lib/engine/llama2c.ts";

const small: Llama2cConfig = {
  dim: 8,
  hiddenDim: 12,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  vocabSize: 10,
  seqLen: 6,
};

async function collect(config: Llama2cConfig, seed: number, chunkFloats = 7): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  await writeLlama2cCheckpoint((b) => Promise.resolve(void parts.push(b)), config, {
    seed,
    chunkFloats,
  });
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

Deno.test("llama2cHeader() writes the seven little-endian int32 fields in llama2.c order", () => {
  const view = new DataView(llama2cHeader(small).buffer);
  const fields = Array.from({ length: 7 }, (_, i) => view.getInt32(i * 4, true));
  assert.deepEqual(fields, [8, 12, 2, 4, 2, 10, 6]);
  assert.equal(LLAMA2C_HEADER_BYTES, 28);
});

Deno.test("llama2cTensors() lists the tensors in the order the converter reads them", () => {
  const names = llama2cTensors(small).map((t) => t.name);
  assert.deepEqual(names, [
    "token_embedding_table",
    "rms_att_weight",
    "wq",
    "wk",
    "wv",
    "wo",
    "rms_ffn_weight",
    "w1",
    "w2",
    "w3",
    "rms_final_weight",
    "freq_cis",
  ]);
  const wk = llama2cTensors(small).find((t) => t.name === "wk")!;
  assert.equal(wk.count, 2 * 8 * 4, "grouped-query: kv width is dim * kvHeads / heads");
});

Deno.test("llama2cFileSize() matches the bytes written, across chunk boundaries", async () => {
  const bytes = await collect(small, 3);
  assert.equal(bytes.length, llama2cFileSize(small));
  const expectedFloats = 10 * 8 + 2 * 8 + 2 * 64 + 2 * 32 * 2 + 2 * 64 + 2 * 8 + 3 * 2 * 96 + 8 +
    6 * 2;
  assert.equal(llama2cFileSize(small), 28 + 4 * expectedFloats);
});

Deno.test("writeLlama2cCheckpoint() is deterministic for a seed and differs between seeds", async () => {
  const a = await collect(small, 42, 5);
  const b = await collect(small, 42, 64);
  const c = await collect(small, 43, 5);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
});

Deno.test("writeLlama2cCheckpoint() fills norms with 1, RoPE tables with 0 and weights within scale", async () => {
  const bytes = await collect(small, 9);
  const floats = new Float32Array(bytes.buffer.slice(LLAMA2C_HEADER_BYTES));
  let offset = 0;
  for (const tensor of llama2cTensors(small)) {
    const values = floats.subarray(offset, offset + tensor.count);
    offset += tensor.count;
    if (tensor.init === "ones") assert.ok(values.every((v) => v === 1), tensor.name);
    else if (tensor.init === "zeros") assert.ok(values.every((v) => v === 0), tensor.name);
    else {
      assert.ok(values.every((v) => Math.abs(v) <= tensor.scale + 1e-6), tensor.name);
      assert.ok(new Set(values).size > values.length / 2, `${tensor.name} looks random`);
    }
  }
  assert.equal(offset, floats.length);
});

Deno.test("llama2cHeader() rejects shapes the converter cannot use", async (t) => {
  await t.step("heads must divide dim", () => {
    assert.throws(() => llama2cHeader({ ...small, heads: 3 }), RangeError);
  });
  await t.step("kvHeads must divide heads", () => {
    assert.throws(() => llama2cHeader({ ...small, kvHeads: 3 }), RangeError);
  });
  await t.step("sizes must be positive integers", () => {
    assert.throws(() => llama2cHeader({ ...small, layers: 0 }), /layers/);
    assert.throws(() => llama2cHeader({ ...small, dim: 8.5 }), /dim/);
  });
});
