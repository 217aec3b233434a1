import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { join } from "node:path";
import { AppError } from "../../../lib/error.ts";
import {
  deletePreset,
  listPresets,
  loadPreset,
  savePreset,
  validatePresetName,
} from "../../../lib/config/mod.ts";
import { tempEnv, writeJson } from "../../_helpers.ts";

Deno.test("listPresets() lists default first, then the built-ins sorted, then user presets", async () => {
  await using t = await tempEnv();
  const dir = join(t.configDir, "presets");
  await writeJson(join(dir, "zeta.json"), { runs: 2 });
  await writeJson(join(dir, "alpha.json"), { params: { context_length: 512 } });
  await writeJson(join(dir, "quick_test.json"), { runs: 9 });
  await writeJson(join(dir, "bad name.json"), { runs: 9 });
  const { presets, ignored } = await listPresets(dir);
  assert.deepEqual(presets.map((p) => p.name), [
    "default",
    "high_quality",
    "quick_test",
    "resource_limited",
    "alpha",
    "zeta",
  ]);
  assert.deepEqual(presets.map((p) => p.readonly), [true, true, true, true, false, false]);
  assert.deepEqual(presets[4]!.values, { context: 512 }, "legacy key and params wrapper");
  assert.deepEqual(ignored.sort(), ["bad name.json", "quick_test.json"]);
});

Deno.test("loadPreset() returns built-ins read-only and refuses unknown names with a 400", async () => {
  await using t = await tempEnv();
  const dir = join(t.configDir, "presets");
  const quick = await loadPreset(dir, "quick_test");
  assert.deepEqual(quick.values, {
    runs: 1,
    context: 1024,
    dev_mode: true,
    enable_profiling: true,
  });
  const err = await loadPreset(dir, "nope").then(() => null, (e) => e);
  assert.ok(err instanceof AppError);
  assert.equal(statusOf(err), 400);
  assert.match(err.message, /Unknown preset 'nope': known presets are default, high_quality/);
});

Deno.test("validatePresetName() accepts [A-Za-z0-9_-]{1,50} only", () => {
  for (const ok of ["a", "A_b-9", "x".repeat(50)]) validatePresetName(ok);
  for (const bad of ["", "x".repeat(51), "../evil", "a b", "a.json", "é"]) {
    assert.throws(() => validatePresetName(bad), (e: AppError) => statusOf(e) === 400);
  }
});

Deno.test("savePreset() writes sorted keys atomically and deletePreset() removes it", async () => {
  await using t = await tempEnv();
  const dir = join(t.configDir, "presets");
  await savePreset(dir, "mine", { runs: 4, context: 4096, retest: true });
  const text = await Deno.readTextFile(join(dir, "mine.json"));
  assert.equal(text, '{\n  "context": 4096,\n  "retest": true,\n  "runs": 4\n}\n');
  assert.deepEqual((await loadPreset(dir, "mine")).values, {
    context: 4096,
    retest: true,
    runs: 4,
  });
  await deletePreset(dir, "mine");
  await assert.rejects(() => deletePreset(dir, "mine"), (e: AppError) => statusOf(e) === 404);
});

Deno.test("savePreset() and deletePreset() refuse built-in names with a 409", async () => {
  await using t = await tempEnv();
  const dir = join(t.configDir, "presets");
  await assert.rejects(
    () => savePreset(dir, "default", { runs: 1 }),
    (e: AppError) => statusOf(e) === 409,
  );
  await assert.rejects(
    () => deletePreset(dir, "high_quality"),
    (e: AppError) => statusOf(e) === 409,
  );
});
