import assert from "node:assert/strict";
import { join } from "node:path";
import { GgufType, readGgufInfo } from "../../../lib/modelserver/gguf_header.ts";
import { ggufWith } from "../engine/fixtures.ts";

/** A llama header whose vocabulary makes it longer than `readGgufInfo()`'s first 1 MiB read. */
function longHeader(tokens: number): Uint8Array {
  return ggufWith([
    ["general.architecture", GgufType.String, (w) => w.str("llama")],
    ["tokenizer.ggml.tokens", GgufType.Array, (w) => {
      w.u32(GgufType.String);
      w.u64(tokens);
      for (let i = 0; i < tokens; i++) w.str(`token-${i}`);
    }],
    ["llama.context_length", GgufType.U32, (w) => w.u32(4096)],
  ]);
}

Deno.test("readGgufInfo() reads on when the header is longer than its first read", async () => {
  const bytes = longHeader(150_000);
  assert.ok(bytes.length > 1 << 20, "the header is longer than the first read");
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "model.gguf");
    await Deno.writeFile(path, bytes);
    const info = await readGgufInfo(path);
    assert.equal(info?.architecture, "llama");
    assert.equal(info?.context_length, 4096);
    assert.equal(info?.size_bytes, bytes.length);
    assert.equal(await readGgufInfo(path, 1 << 20), null, "a header beyond maxBytes");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readGgufInfo() answers null for a file that is not GGUF, cut short or missing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "text.gguf"), "not a model");
    await Deno.writeFile(join(dir, "cut.gguf"), longHeader(10).subarray(0, 40));
    for (const name of ["text.gguf", "cut.gguf", "missing.gguf"]) {
      assert.equal(await readGgufInfo(join(dir, name)), null, name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
