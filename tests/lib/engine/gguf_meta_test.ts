import assert from "node:assert/strict";
import { findGgufKey, GgufType, patchGgufU32 } from "../../../lib/engine/gguf_meta.ts";
import { ggufWith } from "./fixtures.ts";

const sample = () =>
  ggufWith([
    ["general.architecture", GgufType.String, (w) => w.str("llama")],
    ["tokenizer.ggml.tokens", GgufType.Array, (w) => {
      w.u32(GgufType.String);
      w.u64(3);
      ["<unk>", "<s>", "▁hello"].forEach((t) => w.str(t));
    }],
    ["tokenizer.ggml.scores", GgufType.Array, (w) => {
      w.u32(GgufType.F32);
      w.u64(3);
      [0, 0, 0].forEach(() => w.u32(0));
    }],
    ["llama.context_length", GgufType.U32, (w) => w.u32(128)],
    ["llama.rope.dimension_count", GgufType.U32, (w) => w.u32(16)],
  ]);

Deno.test("findGgufKey() skips strings and arrays to find a key's value", () => {
  const bytes = sample();
  const ref = findGgufKey(bytes, "llama.context_length");
  assert.ok(ref);
  assert.equal(ref.type, GgufType.U32);
  assert.equal(new DataView(bytes.buffer).getUint32(ref.offset, true), 128);
  assert.equal(findGgufKey(bytes, "missing.key"), null);
});

Deno.test("findGgufKey() rejects data that is not GGUF or is cut short", () => {
  assert.throws(() => findGgufKey(new TextEncoder().encode("GGML...."), "k"), /magic/);
  assert.throws(
    () => findGgufKey(sample().subarray(0, 60), "llama.context_length"),
    /ends too early/,
  );
});

Deno.test("patchGgufU32() rewrites only the four bytes of the value", async () => {
  const path = await Deno.makeTempFile({ suffix: ".gguf" });
  try {
    const before = sample();
    await Deno.writeFile(path, before);
    await patchGgufU32(path, "llama.context_length", 4096);
    const after = await Deno.readFile(path);
    const ref = findGgufKey(after, "llama.context_length")!;
    assert.equal(new DataView(after.buffer).getUint32(ref.offset, true), 4096);
    const changed = [...after].flatMap((b, i) => (b === before[i] ? [] : [i]));
    assert.ok(changed.every((i) => i >= ref.offset && i < ref.offset + 4));
    await assert.rejects(patchGgufU32(path, "general.architecture", 1), /not a u32/);
    await assert.rejects(patchGgufU32(path, "nope", 1), /no such key/);
  } finally {
    await Deno.remove(path);
  }
});
