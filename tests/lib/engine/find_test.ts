import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { SetupError } from "../../../lib/error.ts";
import { explainMissingEngine, findEngine, requireEngine } from "../../../lib/engine/find.ts";
import { enginePaths } from "../../../lib/engine/paths.ts";
import { makeFakeEngine } from "./fixtures.ts";

Deno.test("findEngine() returns the server, models dir and manifest of a complete engine", async () => {
  const root = await makeFakeEngine();
  try {
    const engine = findEngine({ root });
    assert.ok(engine);
    assert.equal(engine.server, `${root}/bin/llama-server`);
    assert.equal(engine.modelsDir, `${root}/models`);
    assert.deepEqual(engine.manifest.models.map((m) => m.name), ["tiny-a"]);
    assert.equal(engine.stamp.nodeLlamaCpp, "3.22.1");
    assert.equal(explainMissingEngine({ root }), null);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("findEngine() returns null and the reason names engine:setup when a piece is missing", async (t) => {
  const cases: Array<[string, (p: ReturnType<typeof enginePaths>) => Promise<void>, RegExp]> = [
    ["no stamp", (p) => Deno.remove(p.stamp), /build stamp/],
    ["no binary", (p) => Deno.remove(p.server), /llama-server/],
    ["binary not executable", (p) => Deno.chmod(p.server, 0o644), /executable/],
    ["no manifest", (p) => Deno.remove(p.manifest), /manifest/],
    ["model file gone", (p) => Deno.remove(`${p.modelsDir}/tiny-a.gguf`), /tiny-a\.gguf/],
  ];
  for (const [name, breakIt, reason] of cases) {
    await t.step(name, async () => {
      const root = await makeFakeEngine();
      try {
        await breakIt(enginePaths(root));
        assert.equal(findEngine({ root }), null);
        const message = explainMissingEngine({ root });
        assert.match(message ?? "", reason);
        assert.match(message ?? "", /deno task engine:setup/);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    });
  }
});

Deno.test("requireEngine() throws a SetupError engine_missing for a missing engine", () => {
  assert.throws(
    () => requireEngine({ root: "/nonexistent/localbench-engine" }),
    (err: unknown) =>
      err instanceof SetupError && statusOf(err) === 500 && err.code === "engine_missing",
  );
});
