/**
 * The benchmark end to end on the real engine: llama.cpp's `llama-server` in router mode with the
 * two generated models (`deno task engine:setup`), driven through `cli.ts` with the
 * OpenAI-compatible backend. Ignored only when the engine is not built (CI builds it first).
 */
import assert from "node:assert/strict";
import { findEngine, startLlamaServer } from "../../lib/engine/mod.ts";
import { tempEnv } from "../_helpers.ts";
import { engineCli, storedResults } from "./_engine_cli.ts";

const engine = findEngine();

const cli = engineCli;
const results = storedResults;

Deno.test({
  name:
    "a benchmark on the real llama-server measures both models, skips them when cached and measures again with --retest",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 2, modelsMax: 2 });
    let r = await cli(["--runs", "2", "--n-parallel", "2"], env, server);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Benchmarking 2 model\(s\) × 2 run\(s\)/);
    assert.match(r.stdout, /^tiny-a\s+f32\s+\d+\.\d\d/m);
    assert.match(r.stdout, /^tiny-b\s+f32\s+\d+\.\d\d/m);
    let rows = results(env);
    assert.deepEqual(rows.map((x) => [x.model_key, x.status]), [["tiny-a", "ok"], [
      "tiny-b",
      "ok",
    ]]);
    for (const row of rows) {
      const sequential = row.runs.filter((run) => run.parallel === 1);
      const parallel = row.runs.filter((run) => run.parallel === 2);
      assert.equal(sequential.length, 2, "two measured runs");
      assert.equal(parallel.length, 4, "two rounds of two concurrent requests");
      for (const run of sequential) {
        assert.ok((run.tokens_per_sec as number) > 0 && (run.ttft_ms as number) > 0);
        assert.ok((run.server_tokens_per_sec as number) > 0, "llama.cpp timings stored beside");
      }
      assert.ok((row.size_bytes as number) > 0, "size known after the load");
      assert.ok((row.parallel_tokens_per_sec as number) > 0);
    }

    r = await cli(["--runs", "2", "--n-parallel", "2"], env, server);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /skip tiny-a: cached/);
    assert.equal(results(env).length, 2, "nothing measured again");

    r = await cli(
      ["--runs", "1", "--n-parallel", "1", "--retest", "--include-models", "^tiny-b$"],
      env,
      server,
    );
    assert.equal(r.code, 0, r.stderr);
    rows = results(env);
    assert.deepEqual(rows.map((x) => x.model_key), ["tiny-a", "tiny-b", "tiny-b"], "history kept");
  },
});

Deno.test({
  name: "a stopped llama-server gives a clear error and exit code 1",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    const server = await startLlamaServer({ ctxSize: 2048 });
    await server.stop();
    const r = await cli(["--runs", "1"], env, server);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /Cannot reach an OpenAI-compatible server at http:\/\/127\.0\.0\.1:\d+: nothing answers there/,
    );
    assert.match(r.stderr, /--base-url/);
  },
});

Deno.test({
  name:
    "on the real llama-server the GGUF headers answer the filters, and values the server runs with are read back",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 2, modelsMax: 2 });
    const list = await cli(
      ["--arch", "llama", "--min-context", "4096", "--list-models"],
      env,
      server,
    );
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /2 model\(s\) to benchmark, 0 skipped/);
    assert.match(list.stdout, /^\s+tiny-a\s+f32\s+llama\s+4\.2M\s+0\.02 GiB\s+4096$/m);
    const none = await cli(["--arch", "qwen3", "--list-models"], env, server);
    assert.match(none.stdout, /skip: architecture llama not in --arch/);

    const r = await cli(
      [
        "--runs",
        "1",
        "--n-parallel",
        "1",
        "--include-models",
        "^tiny-a$",
        "--context",
        "100000",
        "--kv-cache-quant",
        "q8_0",
        "--json",
      ],
      env,
      server,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /OpenAI-compatible server .* cannot set context_length=100000, kv_cache_quant=q8_0/,
    );
    const entry = JSON.parse(r.stdout).results[0];
    assert.equal(entry.architecture, "llama");
    assert.deepEqual(entry.applied.context_length, {
      requested: 100000,
      applied: 2048,
      status: "not_applied",
      note: "an OpenAI-compatible server takes its load settings on its own command line",
    });
    assert.equal(entry.applied["load.n_threads"].applied, 2, "from the router's arguments");
    assert.equal(entry.applied["inference.temperature"].status, "applied");
    assert.ok(entry.not_applied.includes("load.kv_cache_quant"));
    // The latency distributions of the real server's stream.
    assert.ok(entry.itl_ms_p99 >= entry.itl_ms_median && entry.itl_ms_median > 0);
    assert.ok(entry.tpot_ms_mean > 0 && entry.ttft_ms_p90 > 0);
    assert.equal(JSON.parse(entry.runs[0].itl_json).length, entry.runs[0].tokens_out - 1);
    assert.match(r.stderr, /^tiny-a\s+f32(\s+\d+\.\d\d){12}$/m, "the latency table");
  },
});

Deno.test({
  name:
    "on the real llama-server --prompt-tokens and --gen-tokens give exact lengths and a pp/tg grid",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 1, modelsMax: 1 });
    const r = await cli(
      [
        "--runs",
        "2",
        "--n-parallel",
        "1",
        "--include-models",
        "^tiny-a$",
        "--prompt-tokens",
        "64,300",
        "--gen-tokens",
        "24",
        "--json",
      ],
      env,
      server,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /cannot force the output length/, "llama.cpp forces it");
    assert.match(r.stderr, /^Grid\s+test\s+pp tok\/s\s+tg tok\/s\s+prompt\s+output\s+runs$/m);
    assert.match(
      r.stderr,
      /^tiny-a\s+pp64 tg24\s+[\d.]+ ± [\d.]+\s+[\d.]+ ± [\d.]+\s+64\s+24\s+2$/m,
    );
    assert.match(r.stderr, /^tiny-a\s+pp300 tg24\s+.*\s+300\s+24\s+2$/m);
    // One result per cell: each is its own identity with its own runs.
    const entries = JSON.parse(r.stdout).results;
    assert.equal(entries.length, 2);
    assert.notEqual(entries[0].params_hash, entries[1].params_hash);
    for (const entry of entries) {
      assert.equal(entry.workload.prompt_tokens_method, "tokenizer");
      assert.equal(entry.workload.output_length, "forced (ignore_eos)");
      assert.equal(entry.runs.length, 2, "the runs of its own cell");
      for (const run of entry.runs.filter((x: { parallel: number }) => x.parallel === 1)) {
        assert.equal(run.tokens_in, run.prompt_tokens_target, "the server processed exactly N");
        assert.equal(run.tokens_out, 24, "and generated exactly 24");
        assert.equal(run.prompt_exact, 1);
      }
      assert.equal(entry.grid.length, 1);
    }
    const grid = entries.flatMap((e: { grid: Record<string, number>[] }) => e.grid);
    assert.deepEqual(
      grid.map((c: Record<string, unknown>) => [c.prompt_tokens, c.prompt_exact, c.gen_exact]),
      [[64, 1, 1], [300, 1, 1]],
    );
    for (const c of grid) assert.ok(c.pp_tps_mean > 0 && c.tg_tps_std !== null);
  },
});

Deno.test({
  name: "on the real llama-server a load curve by concurrency and by request rate finds its knee",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    // One slot: the server runs one request at a time, so more in flight cannot add throughput.
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 1, modelsMax: 1 });
    const r = await cli(
      [
        "--runs",
        "1",
        "--n-parallel",
        "1",
        "--include-models",
        "^tiny-a$",
        "--gen-tokens",
        "32",
        "--concurrency",
        "1,4",
        "--request-rate",
        "50",
        "--requests",
        "8",
        "--slo-ttft",
        "60000",
        "--json",
      ],
      env,
      server,
    );
    assert.equal(r.code, 0, r.stderr);
    const entry = JSON.parse(r.stdout).results[0];
    const levels = entry.load_curve;
    assert.deepEqual(levels.map((l: Record<string, unknown>) => [l.mode, l.level, l.ok]), [
      ["concurrency", 1, 8],
      ["concurrency", 4, 8],
      ["rate", 50, 8],
    ]);
    for (const l of levels) {
      assert.ok(l.output_tokens_per_sec > 0 && l.latency_ms_p99 >= l.latency_ms_p50);
      assert.equal(l.slo_met, 8);
    }
    // How latency grows with the level is timing on a shared machine (it flipped under load);
    // tests/lib/bench/load_curve_test.ts checks the figures on a fake clock.
    // The knee follows the rule on the measured figures (which level it is depends on the machine).
    const c = levels.filter((l: { mode: string }) => l.mode === "concurrency");
    const stalls = c[1].output_tokens_per_sec < 1.1 * c[0].output_tokens_per_sec;
    assert.deepEqual(c.map((l: { knee: number }) => l.knee), stalls ? [1, 0] : [0, 0]);
    const loadRuns = entry.runs.filter((x: { load_mode: string | null }) => x.load_mode !== null);
    assert.equal(loadRuns.length, 24);
    assert.ok(loadRuns.every((x: { tokens_out: number }) => x.tokens_out === 32), "forced length");
  },
});
