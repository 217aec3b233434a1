import assert from "node:assert/strict";
import {
  modelFromOpenAi,
  paramsText,
  quantizationOfFtype,
} from "../../../lib/modelserver/openai_models.ts";

Deno.test("modelFromOpenAi() reads llama.cpp's meta of a loaded model", () => {
  const m = modelFromOpenAi({
    id: "tiny-a",
    status: { value: "loaded" },
    meta: { n_params: 4196672, size: 16786688, n_ctx_train: 4096, ftype: "(guessed) all F32" },
  });
  assert.equal(m.size_bytes, 16786688);
  assert.equal(m.params_string, "4.2M");
  assert.equal(m.max_context_length, 4096);
  assert.equal(m.quantization, "F32");
  assert.deepEqual(m.loaded_instances, ["tiny-a"]);
});

Deno.test("modelFromOpenAi() leaves unknown fields null for plain OpenAI entries", () => {
  const m = modelFromOpenAi({ id: "text-embedding-nomic" });
  assert.equal(m.type, "embedding");
  assert.equal(m.size_bytes, null);
  assert.equal(m.quantization, null);
  assert.deepEqual(m.loaded_instances, []);
});

Deno.test("quantizationOfFtype() names llama.cpp file types", () => {
  assert.equal(quantizationOfFtype("Q4_K - Medium"), "Q4_K_M");
  assert.equal(quantizationOfFtype("Q5_K - Small"), "Q5_K_S");
  assert.equal(quantizationOfFtype("Q8_0"), "Q8_0");
  assert.equal(quantizationOfFtype(undefined), null);
  assert.equal(paramsText(7_241_732_096), "7.2B");
});
