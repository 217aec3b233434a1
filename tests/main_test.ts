import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, runDeno, tempEnv, writeJson } from "./_helpers.ts";

Deno.test("main.ts --help prints both helps and exits 0 without a desktop", async () => {
  await using t = await tempEnv();
  const r = await runDeno(["run", "-A", "main.ts", "--help"], { env: t.vars });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /localbench — benchmark local language models/);
  assert.match(r.stdout, /Usage: localbench \[options\]/);
  assert.match(r.stdout, /Comparison options:/);
});

Deno.test("main.ts hands every argument to the benchmark and exits with its status", async () => {
  await using t = await tempEnv();
  const r = await runDeno(["run", "-A", "main.ts", "--runs", "0"], { env: t.vars });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /localbench: error: option '-r, --runs <n>' argument '0' is invalid/);
});

Deno.test("cli.ts --list-cache and --export-cache work on an empty and a filled store", async () => {
  await using t = await tempEnv();
  let r = await runDeno(["run", "-A", "cli.ts", "--list-cache"], { env: t.vars });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /The cache is empty/);

  const fill = `
    import { ResultsStore } from "${join(REPO_ROOT, "lib/store/mod.ts")}";
    const s = ResultsStore.open(Deno.args[0]);
    const id = s.beginResult({ model: { model_key: "org/m@q8_0", model_name: "org/m", quantization: "q8_0" },
      params_hash: "abc123", backend: "rest", params: { prompt: "p" } });
    s.addRun(id, { run_index: 0, tokens_per_sec: 41.5 });
    s.finishResult(id, { status: "ok", aggregates: { tokens_per_sec_mean: 41.5, ttft_ms_mean: 120, runs_ok: 1 } });
    s.close();`;
  const script = join(t.root, "fill.ts");
  await Deno.writeTextFile(script, fill);
  await Deno.mkdir(t.dataDir, { recursive: true });
  r = await runDeno(["run", "-A", script, join(t.dataDir, "results.db")]);
  assert.equal(r.code, 0, r.stderr);

  r = await runDeno(["run", "-A", "cli.ts", "--list-cache"], { env: t.vars });
  assert.match(r.stdout, /org\/m\s+q8_0\s+rest\s+41\.50\s+120\.0\s+1 .* abc123/);

  r = await runDeno(["run", "-A", "cli.ts", "--export-cache", "cache.json"], { env: t.vars });
  assert.equal(r.code, 0, r.stderr);
  const file = join(t.dataDir, "results", "cache.json");
  assert.match(r.stdout, new RegExp(`Exported 1 cached result\\(s\\) to ${file}`));
  const data = JSON.parse(await Deno.readTextFile(file));
  assert.equal(data.results[0].model_key, "org/m@q8_0");
  assert.equal(data.results[0].runs[0].tokens_per_sec, 41.5);
  assert.equal(data.results[0].params.prompt, "p");
});

Deno.test("cli.ts reads the user's defaults.json from LOCALBENCH_CONFIG_DIR", async () => {
  await using t = await tempEnv();
  await writeJson(join(t.configDir, "defaults.json"), { num_runs: 6 });
  const r = await runDeno(["run", "-A", "cli.ts", "--print-config"], { env: t.vars });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).num_runs, 6);
});
