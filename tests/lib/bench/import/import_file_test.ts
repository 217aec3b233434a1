import assert from "node:assert/strict";
import { join } from "node:path";
import { importFile } from "../../../../lib/bench/import/import_file.ts";
import { parseImport } from "../../../../lib/bench/import/parse.ts";
import {
  cacheListing,
  comparableVariants,
  ResultsStore,
  resultsTable,
} from "../../../../lib/store/mod.ts";
import { REPO_ROOT, tempEnv } from "../../../_helpers.ts";

const FIXTURES = join(REPO_ROOT, "tests/lib/bench/_fixtures/import");
const fixture = (name: string) => join(FIXTURES, name);

function count(store: ResultsStore, table: string): number {
  return (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
}

Deno.test("llama-bench -o json tests become results of the backend llama-bench, one run per sample", async () => {
  const store = ResultsStore.open(":memory:");
  try {
    const s = await importFile(store, fixture("llama_bench.json"));
    assert.deepEqual(s, { tool: "llama-bench", records: 3, added: 3, skipped: 0 });
    const rows = store.allResults();
    assert.deepEqual(rows.map((r) => [r.backend, r.status, r.model_key, r.quantization]), [
      ["llama-bench", "ok", "tiny-a-Q8_0", "q8_0"],
      ["llama-bench", "ok", "tiny-a-Q8_0", "q8_0"],
      ["llama-bench", "ok", "tiny-a-Q8_0", "q8_0"],
    ]);
    // pp64: prefill speed; tg16: decode speed; tg16 @ d512: its own identity.
    assert.equal(rows[0]!.prefill_tokens_per_sec_mean, (4100.5 + 4210.25 + 4050) / 3);
    assert.equal(rows[0]!.tokens_per_sec_mean, null);
    assert.equal(rows[1]!.tokens_per_sec_mean, (310.5 + 305.25 + 312) / 3);
    assert.equal(rows[2]!.tokens_per_sec_mean, (250.5 + 248 + 251.75) / 3);
    assert.equal(new Set(rows.map((r) => r.params_hash)).size, 3);
    const runs = store.runsOf(rows[1]!.id);
    assert.deepEqual(runs.map((r) => [r.tokens_per_sec, r.tokens_out, r.total_ms]), [
      [310.5, 16, 51.52979],
      [305.25, 16, 52.416052],
      [312, 16, 51.282051],
    ]);
    const params = JSON.parse(String(rows[2]!.params_json));
    assert.deepEqual(params.workload, { gen_tokens: [16], kv_depth: [512] });
    assert.equal(params.tool.n_threads, 2);
    assert.equal(params.tool.n_gpu_layers, 99);
    assert.equal(params.source.tool, "llama-bench");
    assert.equal(params.source.file, "llama_bench.json");
    assert.equal(rows[1]!.finished_at, "2026-11-20T10:00:01.000Z");
    assert.equal(rows[1]!.server_version, "de3ff815");
  } finally {
    store.close();
  }
});

Deno.test("importing the same file again, or its tests as -o jsonl, adds nothing", async () => {
  const store = ResultsStore.open(":memory:");
  try {
    await importFile(store, fixture("llama_bench.json"));
    const again = await importFile(store, fixture("llama_bench.json"));
    assert.deepEqual([again.added, again.skipped], [0, 3]);
    const lines = await importFile(store, fixture("llama_bench.jsonl"));
    assert.deepEqual([lines.records, lines.added, lines.skipped], [3, 0, 3]);
    assert.equal(count(store, "results"), 3);
    assert.equal(count(store, "runs"), 9);
  } finally {
    store.close();
  }
});

Deno.test("llama-bench -o jsonl is read line by line", async () => {
  const store = ResultsStore.open(":memory:");
  try {
    const s = await importFile(store, fixture("llama_bench.jsonl"));
    assert.deepEqual([s.tool, s.added], ["llama-bench", 3]);
    assert.equal(count(store, "runs"), 9);
  } finally {
    store.close();
  }
});

Deno.test("a vllm bench serve result with per-request lists has a run per request, times in ms", async () => {
  const store = ResultsStore.open(":memory:");
  try {
    const s = await importFile(store, fixture("vllm_bench_detailed.json"));
    assert.deepEqual(s, { tool: "vllm-bench", records: 1, added: 1, skipped: 0 });
    const [r] = store.allResults();
    assert.equal(r!.backend, "vllm-bench");
    assert.equal(r!.model_key, "meta-llama/Llama-3.1-8B-Instruct");
    assert.equal(r!.status, "partial", "one of the four requests failed");
    assert.deepEqual([r!.runs_ok, r!.runs_failed, r!.n_parallel], [3, 1, 4]);
    const runs = store.runsOf(r!.id);
    assert.deepEqual(runs.map((x) => x.status), ["ok", "ok", "ok", "failed"]);
    assert.equal(runs[3]!.error, "Bad Request: context too long");
    assert.deepEqual(runs.slice(0, 3).map((x) => Math.round(Number(x.ttft_ms))), [100, 110, 150]);
    assert.ok(Math.abs(Number(runs[0]!.tpot_ms) - 20) < 1e-9);
    assert.ok(Math.abs(Number(r!.ttft_ms_mean) - 120) < 1e-9);
    assert.ok(Math.abs(Number(r!.tokens_per_sec_mean) - 1000 / 20) < 1);
    assert.equal(r!.parallel_tokens_per_sec, 15);
    const params = JSON.parse(String(r!.params_json));
    assert.deepEqual(params.workload, {
      requests: 4,
      request_rate: [2],
      concurrency: [4],
      burstiness: 1,
    });
    assert.equal(r!.finished_at, "2026-11-20T10:15:00.000Z");
  } finally {
    store.close();
  }
});

Deno.test("a vllm bench serve result without per-request lists keeps its summary statistics", async () => {
  const store = ResultsStore.open(":memory:");
  try {
    await importFile(store, fixture("vllm_bench_summary.json"));
    const [r] = store.allResults();
    assert.equal(store.runsOf(r!.id).length, 0);
    assert.deepEqual(
      [r!.status, r!.ttft_ms_mean, r!.ttft_ms_p99, r!.tpot_ms_median, r!.total_ms_mean],
      ["ok", 120, 145, 20, 420],
    );
    assert.equal(r!.tokens_per_sec_mean, 50);
    assert.deepEqual(JSON.parse(String(r!.params_json)).workload, { requests: 4 });
  } finally {
    store.close();
  }
});

Deno.test("imported results are listed by --list-cache beside their source tool", async () => {
  const store = ResultsStore.open(":memory:");
  try {
    await importFile(store, fixture("llama_bench.json"));
    await importFile(store, fixture("vllm_bench_summary.json"));
    const text = cacheListing(store);
    // Imported results name no machine: the file does not say which one measured them.
    assert.match(text, /tiny-a-Q8_0\s+q8_0\s+llama-bench\s+unknown machine\s+16 out · depth 512/);
    assert.match(text, /llama-bench\s+unknown machine\s+prompt 64 tokens\s/);
    assert.match(
      text,
      /Llama-3\.1-8B-Instruct\s+-\s+vllm-bench\s+unknown machine\s+4 requests\s+50\.00\s+120\.0/,
    );
    assert.match(text, /4 cached result\(s\)/);
  } finally {
    store.close();
  }
});

Deno.test("a malformed file names the file, the record and the field, and nothing is written", async () => {
  await using env = await tempEnv();
  const store = ResultsStore.open(":memory:");
  try {
    const tests = JSON.parse(await Deno.readTextFile(fixture("llama_bench.json")));
    delete tests[1].avg_ts;
    const broken = join(env.root, "broken.json");
    await Deno.writeTextFile(broken, JSON.stringify(tests));
    await assert.rejects(
      () => importFile(store, broken),
      (e: Error & { code?: string }) => {
        assert.equal(e.message, `Cannot import ${broken}: record 2: 'avg_ts' is missing`);
        return e.name === "UsageError";
      },
    );
    assert.equal(count(store, "results"), 0, "the first, valid test was not stored either");
    const lines = (await Deno.readTextFile(fixture("llama_bench.jsonl"))).split("\n");
    lines[1] = "{not json";
    await Deno.writeTextFile(broken, lines.join("\n"));
    await assert.rejects(() => importFile(store, broken), /broken\.json: line 2: not JSON/);
    assert.throws(() => parseImport("", "x.json"), /Cannot import x\.json: the file is empty/);
    assert.throws(
      () => parseImport('{"hello": 1}', "x.json"),
      /not llama-bench output \(-o json, -o jsonl\) nor a vllm bench serve --save-result file/,
    );
    assert.throws(
      () => parseImport('[{"model_filename": "m.gguf", "n_prompt": -1, "n_gen": 0}]', "x.json"),
      /record 1: 'n_prompt' is not a whole number ≥ 0/,
    );
    await assert.rejects(
      () => importFile(store, join(env.root, "none.json")),
      /none\.json: no such file/,
    );
    assert.equal(count(store, "results"), 0);
  } finally {
    store.close();
  }
});

Deno.test("imported results are rows of the dashboard's table and variants of the comparison", async () => {
  const store = ResultsStore.open(":memory:");
  try {
    const id = store.beginResult({
      model: { model_key: "tiny-a-Q8_0", model_name: "tiny-a-Q8_0", quantization: "q8_0" },
      params_hash: "own",
      backend: "openai",
      params: { backend: "openai", load: {} },
    });
    store.addRun(id, { run_index: 0, tokens_per_sec: 300 });
    store.finishResult(id, { status: "ok", aggregates: { tokens_per_sec_mean: 300 } });
    await importFile(store, fixture("llama_bench.json"));
    const rows = resultsTable(store.db);
    assert.deepEqual(rows.map((r) => r.backend).sort(), [
      "llama-bench",
      "llama-bench",
      "llama-bench",
      "openai",
    ]);
    assert.ok(rows.some((r) => r.backend === "llama-bench" && r.workload === "16 out · depth 512"));
    assert.deepEqual(comparableVariants(store.db).map((v) => v.model_key), ["tiny-a-Q8_0"]);
  } finally {
    store.close();
  }
});
