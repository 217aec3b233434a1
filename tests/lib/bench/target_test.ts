import assert from "node:assert/strict";
import type { Backend, ModelInfo } from "../../../lib/modelserver/backend.ts";
import {
  refreshTarget,
  type Target,
  targetOf,
  variantIdentity,
} from "../../../lib/bench/target.ts";

const base: Target = {
  key: "tiny-a",
  model_name: "tiny-a",
  quantization: null,
  architecture: null,
  params_string: null,
  size_bytes: null,
  max_context_length: null,
  format: null,
  vision: false,
  tools: false,
};

/** A model entry of a server's list (`tiny-a`, nothing known, unless told). */
function modelInfo(over: Partial<ModelInfo> = {}): ModelInfo {
  return {
    key: "tiny-a",
    base_key: "tiny-a",
    display_name: "tiny-a",
    type: "llm",
    architecture: null,
    quantization: null,
    params_string: null,
    size_bytes: null,
    max_context_length: null,
    format: null,
    capabilities: { vision: false, trained_for_tool_use: false },
    loaded_instances: [],
    ...over,
  };
}

function backendListing(models: Partial<ModelInfo>[]): Backend {
  return { listModels: () => Promise.resolve(models.map(modelInfo)) } as unknown as Backend;
}

Deno.test("refreshTarget() fills the size and quantization the server reports after the load", async () => {
  const t = await refreshTarget(
    backendListing([{ size_bytes: 1024, quantization: "F32", params_string: "4.2M" }]),
    base,
  );
  assert.equal(t.size_bytes, 1024);
  assert.equal(t.quantization, "f32");
  assert.equal(t.params_string, "4.2M");
});

Deno.test("refreshTarget() keeps a target that is already complete without asking the server", async () => {
  const complete = { ...base, size_bytes: 5, quantization: "q4" };
  const t = await refreshTarget(
    { listModels: () => Promise.reject(new Error("not called")) } as unknown as Backend,
    complete,
  );
  assert.equal(t, complete);
});

Deno.test("a model key gains its quantization; the server's own key is kept to load it by", () => {
  const info = (key: string, quantization: string) =>
    modelInfo({ key, base_key: key.replace(/@.*$/, ""), quantization });
  const t = targetOf(info("google/gemma-4-26b-a4b", "Q4_K_M"), "rest")!;
  assert.deepEqual([t.key, t.load_key, t.quantization], [
    "google/gemma-4-26b-a4b@q4_k_m",
    "google/gemma-4-26b-a4b",
    "q4_k_m",
  ]);
  const v = targetOf(info("qwen/qwen3-4b@q8_0", "Q8_0"), "sdk")!;
  assert.deepEqual([v.key, v.load_key], ["qwen/qwen3-4b@q8_0", undefined]);
  assert.equal(variantIdentity("org/m", null), "org/m", "no quantization known: the key");
});

Deno.test("an OpenAI-compatible server's model id stays the identity", () => {
  const t = targetOf(modelInfo({ quantization: "F32" }), "openai")!;
  assert.deepEqual([t.key, t.load_key, t.quantization], ["tiny-a", undefined, "f32"]);
});

Deno.test("refreshTarget() finds a renamed variant by the key the server lists it under", async () => {
  const t = await refreshTarget(
    { ...backendListing([{ key: "org/m", quantization: "Q4_K_M", size_bytes: 9 }]), kind: "rest" },
    { ...base, key: "org/m@q4_k_m", load_key: "org/m", quantization: "q4_k_m" },
  );
  assert.deepEqual([t.key, t.size_bytes], ["org/m@q4_k_m", 9]);
});
