import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { join } from "node:path";
import { AppError } from "../../../lib/error.ts";
import { builtInDefaults, loadConfig, resolvePaths } from "../../../lib/config/mod.ts";
import { resolveInvocation } from "../../../lib/cli/mod.ts";
import { tempEnv, writeJson } from "../../_helpers.ts";

Deno.test("loadConfig() returns the built-in defaults when no file exists", async () => {
  await using t = await tempEnv();
  const { config } = await loadConfig({ projectFile: join(t.root, "none.json"), userFile: null });
  assert.deepEqual(config, builtInDefaults());
  assert.equal(config.num_runs, 3);
  assert.equal(config.context_length, 2048);
  assert.equal(config.prompt, "Explain machine learning in 3 sentences.");
  assert.deepEqual(config.modelserver.ports, [1234, 1235]);
});

Deno.test("the seed's illustration: project num_runs and prompt, --runs 1 --context 4096 win", async () => {
  await using t = await tempEnv();
  const project = join(t.root, "project.json");
  await writeJson(project, { num_runs: 5, prompt: "Project prompt" });
  const inv = await resolveInvocation(["--runs", "1", "--context", "4096"], {
    env: t.env,
    projectFile: project,
  });
  assert.equal(inv.kind, "run");
  if (inv.kind !== "run") return;
  assert.equal(inv.config.num_runs, 1);
  assert.equal(inv.config.context_length, 4096);
  assert.equal(inv.config.prompt, "Project prompt");
});

Deno.test("loadConfig() merges the user file over the project file and skips its nulls", async () => {
  await using t = await tempEnv();
  const project = join(t.root, "project.json");
  const user = join(t.configDir, "defaults.json");
  await writeJson(project, { num_runs: 5, inference: { temperature: 0.5, max_tokens: 100 } });
  await writeJson(user, { num_runs: null, inference: { temperature: 0.7, max_tokens: null } });
  const { config, layers } = await loadConfig({ projectFile: project, userFile: user });
  assert.equal(config.num_runs, 5);
  assert.equal(config.inference.temperature, 0.7);
  assert.equal(config.inference.max_tokens, 100);
  assert.equal(config.inference.top_k_sampling, 40);
  assert.deepEqual(layers.map((l) => l.found), [true, true, true]);
});

Deno.test("loadConfig() normalises the ports after merging", async () => {
  await using t = await tempEnv();
  const project = join(t.root, "project.json");
  await writeJson(project, { modelserver: { ports: ["4321", 4321, 99999, "x"] } });
  const { config } = await loadConfig({ projectFile: project, userFile: null });
  assert.deepEqual(config.modelserver.ports, [4321]);
  assert.equal(config.modelserver.host, "localhost");
});

// Named by layer and file name: messages reach web responses, so no full path and no content.
Deno.test("loadConfig() names the file, line and column of malformed JSON", async () => {
  await using t = await tempEnv();
  const user = join(t.configDir, "defaults.json");
  await writeJson(user, '{\n  "num_runs": 5,\n  "prompt": }\n');
  const err = await loadConfig({ projectFile: join(t.root, "none.json"), userFile: user })
    .then(() => null, (e) => e);
  assert.ok(err instanceof AppError);
  assert.equal(
    err.message,
    "Cannot parse the user configuration (defaults.json) at line 3, column 13: unexpected character",
  );
});

Deno.test("loadConfig() names the file and key of a value of the wrong type", async () => {
  await using t = await tempEnv();
  const user = join(t.configDir, "defaults.json");
  await writeJson(user, { inference: { temperature: "hot" } });
  await assert.rejects(
    () => loadConfig({ projectFile: join(t.root, "none.json"), userFile: user }),
    (e: Error) =>
      e.message ===
        "Cannot use the user configuration (defaults.json): 'inference.temperature' must be a number between 0.0 and 2.0: got a string",
  );
});

Deno.test("a configuration file and the command line check a field with the same rule", async () => {
  // One schema (lib/config/schema.ts): the file's 422 and the flag's 400 say the same range.
  await using t = await tempEnv();
  const user = join(t.configDir, "defaults.json");
  for (
    const [layer, path, flag] of [
      [{ inference: { temperature: 3 } }, "inference.temperature", "--temperature"],
      [{ load: { n_gpu_layers: -2 } }, "load.n_gpu_layers", "--n-gpu-layers"],
    ] as const
  ) {
    await writeJson(user, layer);
    const err = await loadConfig({ projectFile: join(t.root, "none.json"), userFile: user })
      .then(() => null, (e) => e);
    assert.ok(err instanceof AppError && statusOf(err) === 422, String(err));
    const expected = /must be (.*): got /.exec(err.message)![1]!;
    assert.match(err.message, new RegExp(`'${path}' must be `));
    await Deno.remove(user);
    const value = String(Object.values(Object.values(layer)[0]!)[0]);
    await assert.rejects(
      resolveInvocation([flag, value], { env: t.env, projectFile: join(t.root, "none.json") }),
      (e: unknown) => e instanceof AppError && statusOf(e) === 400 && e.message.includes(expected),
    );
  }
});

Deno.test("a configuration section that is not an object is named, not taken for an unknown key", async () => {
  await using t = await tempEnv();
  const user = join(t.configDir, "defaults.json");
  await writeJson(user, { inference: 5 });
  await assert.rejects(
    loadConfig({ projectFile: join(t.root, "none.json"), userFile: user }),
    /'inference' must be an object: got an integer$/,
  );
});

Deno.test("loadConfig() reports unknown keys instead of failing on them", async () => {
  await using t = await tempEnv();
  const project = join(t.root, "project.json");
  await writeJson(project, { num_run: 4, load: { n_bach: 1 } });
  const { layers } = await loadConfig({ projectFile: project, userFile: null });
  assert.deepEqual(layers[1]!.unknownKeys, ["num_run", "load.n_bach"]);
});

Deno.test("resolvePaths() follows LOCALBENCH_* first, then XDG, then HOME", () => {
  const vars: Record<string, string> = { HOME: "/home/u" };
  const env = (n: string) => vars[n];
  assert.equal(resolvePaths(env).configDir, "/home/u/.config/localbench");
  assert.equal(resolvePaths(env).database, "/home/u/.local/share/localbench/results.db");
  vars.XDG_CONFIG_HOME = "/x/config";
  vars.XDG_DATA_HOME = "relative/ignored";
  assert.equal(resolvePaths(env).configDir, "/x/config/localbench");
  assert.equal(resolvePaths(env).dataDir, "/home/u/.local/share/localbench");
  vars.LOCALBENCH_CONFIG_DIR = "/c";
  vars.LOCALBENCH_DATA_DIR = "/d";
  const p = resolvePaths(env);
  assert.deepEqual([p.configDir, p.presetsDir, p.resultsDir, p.hostDir], [
    "/c",
    "/c/presets",
    "/d/results",
    "/d/host",
  ]);
});
