/**
 * The machine-readable outputs and the honest parts of the command line against the LM Studio
 * double: `--json` (the results document alone on standard output), `--list-models` (what would
 * be benchmarked, every skip with its reason), filters on fields the server does not report, and
 * load values the backend cannot apply marked in every report.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDeno, type TempEnv, tempEnv } from "../_helpers.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";

async function cli(args: string[], env: TempEnv) {
  return await runDeno(["run", "-A", "cli.ts", ...args], { env: env.vars });
}

Deno.test("--json prints the results document alone on standard output", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const args = [
      "--backend",
      "rest",
      "--base-url",
      d.url,
      "--runs",
      "2",
      "--n-parallel",
      "1",
      "--include-models",
      "qwen3-4b@q4",
      "--kv-cache-quant",
      "q8_0",
      "--json",
    ];
    const r = await cli(args, env);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.schema, "localbench.report/1");
    assert.equal(doc.results.length, 1);
    const entry = doc.results[0];
    assert.equal(entry.model_key, "qwen/qwen3-4b@q4_k_m");
    assert.equal(entry.runs.length, 2);
    assert.equal(entry.applied["load.kv_cache_quant"].status, "not_applied");
    assert.ok(entry.not_applied.includes("load.kv_cache_quant"));
    assert.match(r.stderr, /Benchmarking 1 model/, "progress on standard error");
    assert.match(
      r.stderr,
      /^Model\s+Quant\s+tok\/s.*\s+load s\s+warmup s\s+Runs$/m,
      "the table too",
    );
    assert.match(
      r.stderr,
      /^qwen\/qwen3-4b\s+q4_k_m\s.*\s\d+\.\d\d\s+\d+\.\d\d\s+2$/m,
      "load and warmup shown",
    );
    assert.match(r.stderr, /^Latency \(ms\)\s+Quant\s+TTFT mean\s+TTFT p50\s+TTFT p90\s+TTFT p99/m);
    for (const m of ["ttft_ms", "tpot_ms", "itl_ms", "total_ms"]) {
      for (const s of ["mean", "median", "p90", "p99"]) {
        assert.equal(typeof entry[`${m}_${s}`], "number", `${m}_${s} in the JSON`);
      }
    }
    assert.ok(JSON.parse(entry.runs[0].itl_json).length > 0, "each run's gaps");
    assert.match(r.stderr, /Report \(JSON\): /);
    assert.match(r.stderr, /REST v1 API cannot set kv_cache_quant=q8_0/);

    // The written reports mark the value too.
    const files = [...Deno.readDirSync(join(env.dataDir, "results"))].map((f) => f.name);
    const csv = Deno.readTextFileSync(
      join(env.dataDir, "results", files.find((f) => f.endsWith(".csv"))!),
    );
    const [head, row] = csv.split("\r\n");
    const col = head!.split(",").indexOf("not_applied");
    assert.ok(col > 0);
    assert.match(row!, /load\.kv_cache_quant/);
    const html = Deno.readTextFileSync(
      join(env.dataDir, "results", files.find((f) => f.endsWith(".html"))!),
    );
    assert.match(html, /id="applied-table"/);
    assert.match(html, /id="latency-table-ttft_ms"/);
    assert.match(html, /<th class="n">Load \/ warmup \(s\)<\/th>/);
    assert.match(head!, /,itl_ms_mean,.*,ttft_ms_p90,ttft_ms_p99,tpot_ms_p90/);
    assert.match(
      html,
      /kv_cache_quant<\/th><td class="wrap">q8_0<\/td><td class="wrap">server's own \(not reported\)<b class="warn">not applied: LM Studio/,
    );

    // --export-only --json: the stored results as one document, the report paths on stderr.
    const exported = await cli(["--export-only", "--json"], env);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(JSON.parse(exported.stdout).source, "export-only");
    assert.match(exported.stderr, /Report \(JSON\): /);

    // Nothing new to measure: still one JSON document, with no results.
    const again = await cli(args, env);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).results, []);
  } finally {
    await d.close();
  }
});

Deno.test("--list-models lists what would be benchmarked and why each other model is not", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const base = ["--backend", "rest", "--base-url", d.url];
    const r = await cli([...base, "--quants", "q4_k_m", "--limit", "1", "--list-models"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /: 1 model\(s\) to benchmark, \d+ skipped/);
    assert.match(r.stdout, /skip: quantization q8_0 not in --quants/);
    assert.match(r.stdout, /skip: --limit/);
    assert.equal(
      d.state.requests.filter((q) => q.path.includes("/load") || q.path.includes("/chat")).length,
      0,
      "nothing was loaded or run",
    );
    const j = await cli([...base, "--quants", "q4_k_m", "--list-models", "--json"], env);
    assert.equal(j.code, 0, j.stderr);
    const doc = JSON.parse(j.stdout);
    assert.ok(doc.models.length >= 4);
    for (const m of doc.models) {
      assert.ok(["benchmark", "skip"].includes(m.action));
      assert.equal(m.reason === null, m.action === "benchmark");
    }
  } finally {
    await d.close();
  }
});

Deno.test("a filter on a field the server does not report says so instead of skipping silently", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    // LM Studio's OpenAI-compatible /v1 reports only model ids: no architecture.
    const base = ["--backend", "openai", "--base-url", d.url, "--arch", "qwen3"];
    const list = await cli([...base, "--list-models"], env);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /0 model\(s\) to benchmark/);
    assert.match(
      list.stdout,
      /skip: architecture unknown: the server does not report it before loading .*, so --arch leaves it out/,
    );
    const r = await cli([...base, "--runs", "1"], env);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /No model of OpenAI-compatible server at .* matches --arch qwen3: .*for \d+ of them the filter's field is unknown \(architecture unknown: the server does not report it before loading/,
    );
  } finally {
    await d.close();
  }
});

Deno.test("--prompt-tokens and --gen-tokens on LM Studio REST: calibrated, not forced, and said so", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli(
      [
        "--backend",
        "rest",
        "--base-url",
        d.url,
        "--runs",
        "2",
        "--n-parallel",
        "1",
        "--include-models",
        "qwen3-4b@q4",
        "--prompt-tokens",
        "200",
        "--gen-tokens",
        "10,20",
      ],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /cannot force the output length, so --gen-tokens is a maximum/);
    assert.match(
      r.stdout,
      /^qwen\/qwen3-4b@q4_k_m\s+pp200 tg10\s+.*\s+≈200\.0\s+≤10 \(10\.0\)\s+2$/m,
    );
    assert.match(r.stdout, /^qwen\/qwen3-4b@q4_k_m\s+pp200 tg20\s+/m);
    const files = [...Deno.readDirSync(join(env.dataDir, "results"))].map((f) => f.name);
    const read = (ext: string) =>
      Deno.readTextFileSync(join(env.dataDir, "results", files.find((f) => f.endsWith(ext))!));
    assert.match(read(".html"), /id="grid-table"/);
    assert.match(
      read(".csv"),
      /pp200 tg10: pp [\d.]+ ± [\d.]+, tg [\d.]+ ± [\d.]+ \(prompt ≈200\.0/,
    );
    // One result per cell, each its own row of the reports.
    const json = JSON.parse(read(".json"));
    assert.equal(json.results.length, 2);
    assert.deepEqual(
      json.results.map((e: { grid: { gen_tokens: number }[] }) => e.grid.map((c) => c.gen_tokens)),
      [[10], [20]],
    );
    assert.equal(json.results[0].workload.prompt_tokens_method, "calibrated");
    assert.match(read(".html"), /qwen3-4b @q4_k_m · pp200 tg10/);
    assert.match(read(".html"), /qwen3-4b @q4_k_m · pp200 tg20/);
    const pdf = join(env.dataDir, "results", files.find((f) => f.endsWith(".pdf"))!);
    const text = await new Deno.Command("pdftotext", { args: [pdf, "-"], stdout: "piped" })
      .output();
    const pdfText = new TextDecoder().decode(text.stdout);
    assert.match(pdfText, /Controlled workload: prefill \(pp\) and decode \(tg\)/);
    assert.match(pdfText, /Latency distributions \(ms\)/);
  } finally {
    await d.close();
  }
});

Deno.test("a load curve against an OpenAI-compatible server given by --base-url", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0, tokenDelayMs: 1 });
  try {
    const r = await cli(
      [
        "--backend",
        "openai",
        "--base-url",
        `${d.url}/v1`,
        "--runs",
        "1",
        "--n-parallel",
        "1",
        "--include-models",
        "qwen3-4b",
        "--concurrency",
        "1,2",
        "--request-rate",
        "30",
        "--requests",
        "4",
        "--slo-ttft",
        "5000",
        "--slo-tpot",
        "1000",
        "--json",
      ],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /load concurrency 2: 4\/4 ok, [\d.]+ tok\/s out, [\d.]+ req\/s, latency p99 \d+ ms, goodput [\d.]+ req\/s/,
    );
    assert.match(r.stderr, /^Load curve\s+level\s+ok\s+out tok\/s\s+req\/s\s+goodput\/s/m);
    assert.match(r.stderr, /^qwen\/qwen3-4b\s+30\/s\s+4\/4\s/m);
    const entry = JSON.parse(r.stdout).results[0];
    assert.deepEqual(
      entry.load_curve.map((l: Record<string, unknown>) => [l.mode, l.level, l.ok, l.slo_met]),
      [["concurrency", 1, 4, 4], ["concurrency", 2, 4, 4], ["rate", 30, 4, 4]],
    );
    assert.ok(entry.load_curve.every((l: { goodput_rps: number }) => l.goodput_rps > 0));
    const chats = d.state.requests.filter((q) => q.path === "/v1/chat/completions");
    assert.equal(chats.length, 1 + 1 + 12, "warmup, one run, 3 levels × 4 requests");
    const files = [...Deno.readDirSync(join(env.dataDir, "results"))].map((f) => f.name);
    const html = Deno.readTextFileSync(
      join(env.dataDir, "results", files.find((f) => f.endsWith(".html"))!),
    );
    assert.match(html, /id="load-table"/);
    assert.match(html, /"id":"load-concurrency"/);
    assert.match(html, /"id":"load-rate"/);
  } finally {
    await d.close();
  }
});

Deno.test("load curves need concurrent requests: SDK mode and goodput targets alone are refused", async () => {
  await using env = await tempEnv();
  const sdk = await cli(["--concurrency", "1,2"], env);
  assert.equal(sdk.code, 2);
  assert.match(sdk.stderr, /SDK mode\s+does not: add --use-rest-api/);
  const slo = await cli(["--use-rest-api", "--slo-ttft", "200"], env);
  assert.equal(slo.code, 2);
  assert.match(slo.stderr, /--slo-ttft, --slo-tpot and --slo-e2el set the goodput of a load curve/);
  const e2el = await cli(["--use-rest-api", "--slo-e2el", "900"], env);
  assert.equal(e2el.code, 2);
  assert.match(e2el.stderr, /--slo-e2el set the goodput of a load curve/);
});

Deno.test("workload options that do nothing or contradict each other are refused with the fix", async () => {
  await using env = await tempEnv();
  const cases: [string[], RegExp][] = [
    [["--duration", "5"], /--duration sets how long each load level lasts: add --concurrency/],
    [
      ["--concurrency", "2", "--burstiness", "0.5"],
      /--burstiness shapes the arrivals of --request-rate/,
    ],
    [["--prompt-tokens-stddev", "8"], /spreads the lengths around --prompt-tokens: add it/],
    [["--gen-tokens-stddev", "8"], /spreads the lengths around --gen-tokens: add it/],
    [["--range-ratio", "0.3"], /--range-ratio spreads the lengths .*: add one/],
    [
      ["--gen-tokens", "8", "--range-ratio", "0.3", "--gen-tokens-stddev", "2"],
      /contradict each other: use one/,
    ],
    [["--dataset-sample", "5"], /--dataset-sample picks requests of a dataset: add --dataset/],
    [["--range-ratio", "1"], /range-ratio/],
  ];
  for (const [args, message] of cases) {
    const r = await cli(["--use-rest-api", ...args], env);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});
