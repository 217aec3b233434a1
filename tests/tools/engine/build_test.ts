import assert from "node:assert/strict";
import { BUILD_TARGETS, CMAKE_FLAGS, progressReporter } from "../../../tools/engine/build.ts";

Deno.test("CMAKE_FLAGS turn off every download and the build makes only the server, the converter and llama-bench", () => {
  for (
    const flag of [
      "-DLLAMA_USE_PREBUILT_UI=OFF",
      "-DLLAMA_BUILD_UI=OFF",
      "-DLLAMA_OPENSSL=OFF",
      "-DGGML_NATIVE=OFF",
    ]
  ) {
    assert.ok(CMAKE_FLAGS.includes(flag), flag);
  }
  assert.deepEqual(BUILD_TARGETS, ["llama-server", "llama-convert-llama2c-to-ggml", "llama-bench"]);
});

Deno.test("progressReporter() prints one line per tenth of Ninja's progress", () => {
  const said: string[] = [];
  const on = progressReporter((s) => said.push(s));
  for (let i = 1; i <= 200; i++) on(`[${i}/200] Building CXX object x.o`);
  on("ninja: no work to do.");
  assert.equal(said.length, 10);
  assert.equal(said.at(-1), "build: 100% (200/200)");
});
