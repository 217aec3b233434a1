import assert from "node:assert/strict";
import { shortModelName } from "../../../lib/shared/model_name.ts";

Deno.test("shortModelName() shows a model file's name without its folders or extension", () => {
  assert.equal(
    shortModelName("/root/.cache/localbench/engine/llama.cpp-de3ff81/models/tiny-a.gguf"),
    "tiny-a",
  );
  assert.equal(shortModelName("./models/Qwen3-4B-Q4_K_M.gguf"), "Qwen3-4B-Q4_K_M");
  assert.equal(shortModelName("C:\\models\\phi-3.gguf"), "phi-3");
  assert.equal(
    shortModelName("/models/tiny-a.gguf@q4_k_m"),
    "tiny-a@q4_k_m",
    "a variant suffix stays",
  );
  assert.equal(shortModelName("lmstudio-community/Qwen3-4B-GGUF/Qwen3-4B-Q4.gguf"), "Qwen3-4B-Q4");
});

Deno.test("shortModelName() keeps model keys and plain names as they are", () => {
  for (const id of ["qwen/qwen3-4b", "qwen/qwen3-4b@q4_k_m", "tiny-a", "llama3.2:1b"]) {
    assert.equal(shortModelName(id), id);
  }
});
