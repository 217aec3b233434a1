import assert from "node:assert/strict";
import { modelsFromSdkEntries, sdkEntries } from "../../../lib/modelserver/lmstudio_models.ts";
import { RpcError, withRpcSession } from "../../../lib/modelserver/lmstudio_ws_rpc.ts";
import { startLmStudioDouble } from "../../doubles/lmstudio_server.ts";
import { rejectionOf, silentServer } from "./_fixtures.ts";

const entry = {
  type: "llm" as const,
  modelKey: "qwen/qwen3-4b",
  format: "gguf",
  displayName: "Qwen3 4B",
  path: "qwen/Qwen3-4B-GGUF/Qwen3-4B-Q4_K_M.gguf",
  sizeBytes: 2497280960,
  quantization: { name: "Q4_K_M", bits: 4 },
  maxContextLength: 32768,
  trainedForToolUse: true,
};

Deno.test("a model listed with variants but no variant details gives each variant its key's quantization", () => {
  const models = modelsFromSdkEntries([{
    ...entry,
    variants: ["qwen/qwen3-4b@q4_k_m", "qwen/qwen3-4b@q8_0"],
    selectedVariant: "qwen/qwen3-4b@q4_k_m",
  }]);
  assert.deepEqual(models.map((m) => [m.key, m.base_key, m.quantization, m.size_bytes]), [
    ["qwen/qwen3-4b@q4_k_m", "qwen/qwen3-4b", "Q4_K_M", 2497280960],
    ["qwen/qwen3-4b@q8_0", "qwen/qwen3-4b", "Q8_0", null],
  ]);
  assert.equal(models[1]!.capabilities.trained_for_tool_use, true);
});

Deno.test("a model an older server lists without variants is its one variant", () => {
  const [m] = modelsFromSdkEntries([entry]);
  assert.deepEqual([m!.key, m!.quantization, m!.size_bytes], [
    "qwen/qwen3-4b",
    "Q4_K_M",
    2497280960,
  ]);
});

Deno.test("a model list answer that is not a list is refused; odd entries are left out", () => {
  assert.throws(() => sdkEntries({ models: [] }), /not a list/);
  const kept = sdkEntries([entry, { modelKey: 3 }, null, { ...entry, type: "vision-thing" }, {
    ...entry,
    variants: ["a@q4", 7],
  }]);
  assert.deepEqual(kept.map((e) => e.variants), [undefined, ["a@q4"]]);
});

Deno.test("an RPC session authenticates, calls and reports the server's errors as RpcError", async () => {
  const d = await startLmStudioDouble({ port: 0, token: "sk-lm-abc123:secret456" });
  try {
    const url = `ws://127.0.0.1:${d.port}/system`;
    const good = { clientIdentifier: "abc123", clientPasskey: "secret456" };
    const listed = await withRpcSession(url, good, (call) => call("listDownloadedModels"), 5000);
    assert.ok(Array.isArray(listed) && listed.length > 0);
    const err = await rejectionOf(
      withRpcSession(url, good, (call) => call("noSuchCall"), 5000),
    );
    assert.ok(err instanceof RpcError && err.endpoint === "noSuchCall", String(err));
    const refused = await rejectionOf(
      withRpcSession(url, { ...good, clientPasskey: "wrong" }, () => Promise.resolve(1), 5000),
    );
    assert.match(String(refused), /Failed to authenticate: Invalid passkey/);
  } finally {
    await d.close();
  }
});

Deno.test("an RPC session that gets no answer gives up in time and closes its socket", async () => {
  const s = silentServer();
  try {
    const err = await rejectionOf(withRpcSession(
      `ws://127.0.0.1:${s.port}/system`,
      { clientIdentifier: "a", clientPasskey: "b" },
      () => Promise.resolve(1),
      200,
    ));
    assert.match(String(err), /No answer from .* within 200 ms/);
  } finally {
    await s.close();
  }
});
