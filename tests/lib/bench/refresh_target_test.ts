import assert from "node:assert/strict";
import type { Backend, ModelInfo } from "../../../lib/modelserver/backend.ts";
import { refreshTarget, type Target } from "../../../lib/bench/target.ts";

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

function backendListing(models: Partial<ModelInfo>[]): Backend {
  return {
    listModels: () =>
      Promise.resolve(models.map((m) =>
        ({
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
          ...m,
        }) as ModelInfo
      )),
  } as unknown as Backend;
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
