import assert from "node:assert/strict";
import { ENGINE_ID, enginePaths, engineRoot, LLAMA_CPP_COMMIT } from "../../../lib/engine/paths.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("engineRoot() prefers LOCALBENCH_ENGINE_DIR, used as it is", () => {
  const root = engineRoot({
    env: envOf({ LOCALBENCH_ENGINE_DIR: "/opt/eng/", XDG_CACHE_HOME: "/x" }),
  });
  assert.equal(root, "/opt/eng");
});

Deno.test("engineRoot() uses XDG_CACHE_HOME, then HOME/.cache, with a versioned folder", () => {
  assert.equal(
    engineRoot({ env: envOf({ XDG_CACHE_HOME: "/x", HOME: "/h" }) }),
    `/x/localbench/engine/${ENGINE_ID}`,
  );
  assert.equal(
    engineRoot({ env: envOf({ HOME: "/h" }) }),
    `/h/.cache/localbench/engine/${ENGINE_ID}`,
  );
  assert.equal(ENGINE_ID, `llama.cpp-${LLAMA_CPP_COMMIT.slice(0, 7)}`);
});

Deno.test("engineRoot() says which variables to set when none is", () => {
  assert.throws(() => engineRoot({ env: envOf({}) }), /LOCALBENCH_ENGINE_DIR/);
});

Deno.test("enginePaths() puts binaries in bin/ and the manifest inside models/", () => {
  const p = enginePaths("/e/");
  assert.equal(p.server, "/e/bin/llama-server");
  assert.equal(p.converter, "/e/bin/llama-convert-llama2c-to-ggml");
  assert.equal(p.modelsDir, "/e/models");
  assert.equal(p.manifest, "/e/models/manifest.json");
  assert.equal(p.stamp, "/e/engine.json");
});
