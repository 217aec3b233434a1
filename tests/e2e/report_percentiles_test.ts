/**
 * `--percentiles` shapes the reports as well as the console: a benchmark against the LM Studio
 * double writes the chosen percentiles into every report and stores them with its result, so a
 * later `--export-only` shows them again, unless it is given its own `--percentiles`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ResultsStore } from "../../lib/store/mod.ts";
import { programPermissions, runDeno, tempEnv } from "../_helpers.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";
import { parseCsv } from "../lib/reports/csv_parse.ts";

const BENCH = ["run", ...programPermissions("bench"), "cli.ts"];
const REST = ["--backend", "rest", "--n-parallel", "1", "--include-models", "qwen3-4b@q4"];

function cli(args: string[], vars: Record<string, string>) {
  return runDeno([...BENCH, ...args], { env: vars });
}

/** The newest report of each format in the results folder. */
function newest(dataDir: string, ext: string): string {
  const dir = join(dataDir, "results");
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(ext))
    .sort();
  return Deno.readTextFileSync(join(dir, names.at(-1)!));
}

Deno.test("--percentiles chooses what every report shows, and a later --export-only shows what the run asked for", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await cli([
      ...REST,
      ...["--base-url", d.url, "--runs", "3", "--concurrency", "2", "--requests", "4"],
      ...["--percentiles", "50,95,99.9"],
    ], env.vars);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(newest(env.dataDir, ".json"));
    assert.deepEqual(json.percentiles, [50, 95, 99.9]);
    const result = json.results[0];
    assert.deepEqual(Object.keys(result.latency_percentiles.ttft_ms), ["p50", "p95", "p99.9"]);
    assert.equal(typeof result.latency_percentiles.ttft_ms["p99.9"], "number");
    assert.deepEqual(result.workload.percentiles, [50, 95, 99.9], "stored with the result");
    const level = result.load_curve[0];
    assert.equal(typeof level.latency_percentiles.latency_ms["p99.9"], "number");
    const [head] = parseCsv(newest(env.dataDir, ".csv"));
    assert.ok(head!.includes("ttft_ms_p99.9"));
    const html = newest(env.dataDir, ".html");
    assert.match(html, /id="latency-table-ttft_ms"[^]*?<th class="n">p99\.9<\/th>/);
    assert.match(html, /<th>Latency p50 \/ p95 \/ p99\.9 ms<\/th>/);

    const store = ResultsStore.open(join(env.dataDir, "results.db"));
    try {
      const row = store.allResults()[0]!;
      assert.deepEqual(JSON.parse(String(row.workload_json)).percentiles, [50, 95, 99.9]);
    } finally {
      store.close();
    }

    // Later, without the option: the stored choice; with it: the option's.
    await new Promise((ok) => setTimeout(ok, 1100)); // a new report id (one per second)
    const later = await cli(["--export-only"], env.vars);
    assert.equal(later.code, 0, later.stderr);
    assert.deepEqual(JSON.parse(newest(env.dataDir, ".json")).percentiles, [50, 95, 99.9]);
    await new Promise((ok) => setTimeout(ok, 1100));
    const chosen = await cli(["--export-only", "--percentiles", "90"], env.vars);
    assert.equal(chosen.code, 0, chosen.stderr);
    const again = JSON.parse(newest(env.dataDir, ".json"));
    assert.deepEqual(again.percentiles, [90]);
    assert.deepEqual(Object.keys(again.results[0].latency_percentiles.ttft_ms), ["p90"]);
    assert.equal(parseCsv(newest(env.dataDir, ".csv"))[0]!.includes("ttft_ms_p99.9"), false);
    assert.doesNotMatch(newest(env.dataDir, ".html"), /p99\.9/);
  } finally {
    await d.close();
  }
});
