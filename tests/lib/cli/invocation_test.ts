import assert from "node:assert/strict";
import { join } from "node:path";
import { type Invocation, resolveInvocation, runCli } from "../../../lib/cli/mod.ts";
import { type TempEnv, tempEnv, writeJson } from "../../_helpers.ts";

const NO_PROJECT = "/nonexistent/defaults.json";

async function run(t: TempEnv, argv: string[]): Promise<Extract<Invocation, { kind: "run" }>> {
  const inv = await resolveInvocation(argv, { env: t.env, projectFile: NO_PROJECT });
  if (inv.kind !== "run") throw new Error("expected a run");
  return inv;
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) } };
}

Deno.test("resolveInvocation() maps the inference and load flags onto the configuration", async () => {
  await using t = await tempEnv();
  const inv = await run(t, [
    "--temperature=0.7",
    "--top-k",
    "20",
    "--top-p",
    "0.5",
    "--min-p",
    "0.2",
    "--repeat-penalty",
    "1.1",
    "--max-tokens",
    "64",
    "--n-gpu-layers",
    "0",
    "--n-batch",
    "128",
    "--n-threads",
    "2",
    "--no-flash-attention",
    "--rope-freq-base",
    "10000",
    "--rope-freq-scale",
    "0.5",
    "--no-mmap",
    "--use-mlock",
    "--kv-cache-quant",
    "q8_0",
    "--api-token",
    "secret",
    "--base-url",
    "http://127.0.0.1:9/",
  ]);
  assert.deepEqual(inv.config.inference, {
    temperature: 0.7,
    top_k_sampling: 20,
    top_p_sampling: 0.5,
    min_p_sampling: 0.2,
    repeat_penalty: 1.1,
    max_tokens: 64,
  });
  assert.deepEqual(inv.config.load, {
    n_gpu_layers: 0,
    n_batch: 128,
    n_threads: 2,
    flash_attention: false,
    rope_freq_base: 10000,
    rope_freq_scale: 0.5,
    use_mmap: false,
    use_mlock: true,
    kv_cache_quant: "q8_0",
  });
  assert.equal(inv.config.modelserver.api_token, "secret");
  assert.equal(inv.config.modelserver.base_url, "http://127.0.0.1:9");
});

Deno.test("resolveInvocation() turns --use-rest-api into the rest backend and refuses a contradiction", async () => {
  await using t = await tempEnv();
  const inv = await run(t, ["--use-rest-api"]);
  assert.equal(inv.config.modelserver.use_rest_api, true);
  assert.equal(inv.config.modelserver.backend, "rest");
  await assert.rejects(() => run(t, ["--use-rest-api", "--backend", "openai"]), /contradict/);
});

Deno.test("resolveInvocation() fills the run options with their defaults", async () => {
  await using t = await tempEnv();
  const inv = await run(t, []);
  assert.equal(inv.options.action, "benchmark");
  assert.equal(inv.options.n_parallel, 4);
  assert.equal(inv.options.rank_by, "speed");
  assert.deepEqual(inv.options.filters.quants, []);
  assert.equal(inv.options.limit, null);
});

Deno.test("a preset applies its values and explicit arguments win over it", async () => {
  await using t = await tempEnv();
  const inv = await run(t, ["--preset", "high_quality", "--runs", "2"]);
  assert.equal(inv.config.num_runs, 2, "explicit --runs wins");
  assert.equal(inv.config.context_length, 8192, "from the preset");
  assert.equal(inv.options.enable_profiling, true);
  assert.equal(inv.options.retest, true);
  assert.deepEqual(inv.presetArgs, [
    "--runs",
    "5",
    "--context",
    "8192",
    "--enable-profiling",
    "--retest",
  ]);
});

Deno.test("a user preset applies, and a broken one is refused naming the preset and key", async () => {
  await using t = await tempEnv();
  await writeJson(join(t.configDir, "presets", "mine.json"), {
    num_runs: 7,
    no_mmap: true,
    use_mmap: false,
  });
  await assert.rejects(
    () => run(t, ["-p", "mine"]),
    /Invalid preset 'mine': 'no_mmap' is not a preset setting/,
  );
  await writeJson(join(t.configDir, "presets", "mine.json"), { num_runs: 7, use_mmap: false });
  const inv = await run(t, ["-p", "mine"]);
  assert.equal(inv.config.num_runs, 7);
  assert.equal(inv.config.load.use_mmap, false);
  await writeJson(join(t.configDir, "presets", "bad.json"), { runs: 0 });
  await assert.rejects(
    () => run(t, ["-p", "bad"]),
    /Invalid preset 'bad': option '-r, --runs <n>'/,
  );
});

Deno.test("--dev-mode means one run", async () => {
  await using t = await tempEnv();
  const inv = await run(t, ["--dev-mode", "--runs", "5"]);
  assert.equal(inv.config.num_runs, 1);
  assert.equal(inv.options.dev_mode, true);
});

Deno.test("runCli() exits 2 with one message for an invalid argument or an unknown preset", async () => {
  await using t = await tempEnv();
  for (
    const argv of [["--runs", "0"], ["--context", "abc"], ["--include-models", "(x"], [
      "--preset",
      "nope",
    ]]
  ) {
    const c = capture();
    const code = await runCli(argv, { env: t.env, projectFile: NO_PROJECT, output: c.output });
    assert.equal(code, 2, argv.join(" "));
    assert.equal(c.err.length, 1);
    assert.match(c.err[0]!, /^localbench: error: .+ \(see --help\)$/);
  }
});

Deno.test("runCli() exits 1 naming the file when a configuration file is malformed", async () => {
  await using t = await tempEnv();
  await writeJson(join(t.configDir, "defaults.json"), "{ nope");
  const c = capture();
  const code = await runCli(["--print-config"], {
    env: t.env,
    projectFile: NO_PROJECT,
    output: c.output,
  });
  assert.equal(code, 1);
  assert.match(
    c.err[0]!,
    /Cannot parse the user configuration \(defaults\.json\) at line 1, column 3/,
  );
});

Deno.test("runCli() --print-config prints the merged configuration with the token masked", async () => {
  await using t = await tempEnv();
  await writeJson(join(t.configDir, "defaults.json"), {
    num_runs: 9,
    modelserver: { api_token: "tok" },
  });
  const c = capture();
  const code = await runCli(["--print-config", "--context", "512"], {
    env: t.env,
    projectFile: NO_PROJECT,
    output: c.output,
  });
  assert.equal(code, 0);
  const printed = JSON.parse(c.out[0]!);
  assert.equal(printed.num_runs, 9);
  assert.equal(printed.context_length, 512);
  assert.equal(printed.modelserver.api_token, "***");
  assert.match(
    c.err[0]!,
    /built-in defaults → \/nonexistent\/defaults\.json \(not found\) → .*defaults\.json → command line/,
  );
});

Deno.test("runCli() --list-presets lists built-in and user presets", async () => {
  await using t = await tempEnv();
  await writeJson(join(t.configDir, "presets", "mine.json"), { runs: 2 });
  const c = capture();
  assert.equal(
    await runCli(["--list-presets"], { env: t.env, projectFile: NO_PROJECT, output: c.output }),
    0,
  );
  assert.match(c.out[0]!, /^default\s+\[readonly\]$/m);
  assert.match(
    c.out[0]!,
    /^quick_test\s+\[readonly\]\s+runs=1 context=1024 dev_mode=true enable_profiling=true$/m,
  );
  assert.match(c.out[0]!, /^mine\s+\[user\]\s+runs=2$/m);
});

Deno.test("runCli() --help prints the help and exits 0", async () => {
  await using t = await tempEnv();
  const c = capture();
  assert.equal(
    await runCli(["--help"], { env: t.env, projectFile: NO_PROJECT, output: c.output }),
    0,
  );
  assert.match(c.out[0]!, /Usage: localbench \[options\]/);
  assert.match(c.out[0]!, /--runs <n>\s+measured runs per model \(default: 3\)/);
});

Deno.test("runCli() turns an unexpected error into one line; --debug adds its stack", async () => {
  await using t = await tempEnv();
  const boom = () => Promise.reject(new TypeError("boom"));
  let c = capture();
  let code = await runCli([], {
    env: t.env,
    projectFile: NO_PROJECT,
    output: c.output,
    benchmark: boom,
  });
  assert.equal(code, 1);
  assert.deepEqual(c.err, [
    "localbench: error: boom (unexpected; run again with --debug for the details)",
  ]);
  c = capture();
  code = await runCli(["--debug"], {
    env: t.env,
    projectFile: NO_PROJECT,
    output: c.output,
    benchmark: boom,
  });
  assert.equal(code, 1);
  assert.match(
    c.err[0]!,
    /^localbench: error: boom \(unexpected; details follow\)\nTypeError: boom\n\s+at /,
  );
});

Deno.test("--request-timeout takes seconds (a fraction too) and refuses zero", async () => {
  await using t = await tempEnv();
  assert.equal((await run(t, ["--request-timeout", "2.5"])).options.request_timeout, 2.5);
  assert.equal((await run(t, [])).options.request_timeout, null);
  await assert.rejects(run(t, ["--request-timeout", "0"]), /argument '0' is invalid/);
});

Deno.test("the store is --store, else $LOCALBENCH_STORE, else store.url, else the data folder's", async () => {
  await using t = await tempEnv();
  assert.equal((await run(t, [])).paths.database, join(t.vars.LOCALBENCH_DATA_DIR!, "results.db"));
  await writeJson(join(t.configDir, "defaults.json"), {
    store: { url: "postgres://cfg@db:5432/lb" },
  });
  assert.equal((await run(t, [])).paths.database, "postgres://cfg@db:5432/lb");
  t.vars.LOCALBENCH_STORE = "postgres://env@db:5432/lb";
  assert.equal((await run(t, [])).paths.database, "postgres://env@db:5432/lb");
  const inv = await run(t, [
    "--store",
    "postgres://flag@db/lb",
    "--store-copy-to",
    "postgres://x/y",
  ]);
  assert.equal(inv.paths.database, "postgres://flag@db/lb");
  assert.equal(inv.options.action, "store-copy");
  assert.equal(inv.options.store_copy_to, "postgres://x/y");
});

Deno.test("--store-copy-to refuses a target that is not a PostgreSQL URL", async () => {
  await using t = await tempEnv();
  const c = capture();
  const code = await runCli(["--store-copy-to", "/tmp/other.db"], {
    env: t.env,
    projectFile: NO_PROJECT,
    output: c.output,
  });
  assert.equal(code, 2);
  assert.match(c.err.join("\n"), /--store-copy-to takes a PostgreSQL URL/);
});
