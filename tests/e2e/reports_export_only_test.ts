import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/mod.ts";
import { runExportOnly } from "../../lib/reports/mod.ts";
import { ResultsStore } from "../../lib/store/mod.ts";
import { tempEnv } from "../_helpers.ts";
import { parseCsv } from "../lib/reports/csv_parse.ts";
import { fillStore } from "../lib/reports/fixtures.ts";

const NO_PROJECT = "/nonexistent/defaults.json";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) } };
}

async function storeWithResults(dataDir: string): Promise<void> {
  await Deno.mkdir(dataDir, { recursive: true });
  const store = ResultsStore.open(join(dataDir, "results.db"));
  fillStore(store);
  store.close();
}

function cli(env: (name: string) => string | undefined, argv: string[], now: Date) {
  const c = capture();
  const code = runCli(argv, {
    env,
    projectFile: NO_PROJECT,
    output: c.output,
    benchmark: (inv, output) => {
      assert.equal(inv.options.action, "export-only");
      return runExportOnly(inv, output, { now: () => now });
    },
  });
  return { c, code };
}

Deno.test("--export-only writes the four reports of the stored results that pass the filters", async () => {
  await using t = await tempEnv();
  await storeWithResults(t.dataDir);
  const { c, code } = cli(
    t.env,
    ["--export-only", "--quants", "q4", "--exclude-models", "gemma"],
    new Date(2026, 0, 2, 3, 4, 5),
  );
  assert.equal(await code, 0, c.err.join("\n"));
  const dir = join(t.dataDir, "results");
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assert.deepEqual(
    names,
    ["csv", "html", "json", "pdf"].map((x) => `benchmark_results_20260102_030405.${x}`),
  );
  assert.equal(c.out.filter((l) => l.startsWith("Report (")).length, 4);
  const json = JSON.parse(
    await Deno.readTextFile(join(dir, "benchmark_results_20260102_030405.json")),
  );
  assert.deepEqual(json.results.map((r: { model_key: string }) => r.model_key), [
    "qwen/qwen3-4b@q4_k_m",
  ]);
  assert.equal(json.source, "export-only");
  assert.deepEqual(json.options.filters, { quants: ["q4"], exclude_models: "gemma" });
  const csv = parseCsv(await Deno.readTextFile(join(dir, "benchmark_results_20260102_030405.csv")));
  assert.equal(csv.length, 2);
});

Deno.test("--export-only --compare-with latest never compares a result with itself: it says so", async () => {
  await using t = await tempEnv();
  await storeWithResults(t.dataDir);
  const first = cli(t.env, ["--export-only"], new Date(2026, 0, 2, 3, 4, 5));
  assert.equal(await first.code, 0);
  // The same store exported again: the earlier report holds the very same results.
  const second = cli(
    t.env,
    ["--export-only", "--compare-with", "latest"],
    new Date(2026, 0, 3, 3, 4, 5),
  );
  assert.equal(await second.code, 0, second.c.err.join("\n"));
  assert.ok(
    second.c.out.some((l) =>
      /Compared with benchmark_results_20260102_030405\.json: 0 of 4 result\(s\)/.test(l)
    ),
    second.c.out.join("\n"),
  );
  assert.equal(
    second.c.out.filter((l) =>
      /nothing comparable for .*: the earlier report holds this same/.test(l)
    )
      .length,
    4,
  );
  const json = JSON.parse(
    await Deno.readTextFile(join(t.dataDir, "results", "benchmark_results_20260103_030405.json")),
  );
  assert.equal(json.compare_with.report_id, "20260102_030405");
  for (const r of json.results) {
    assert.equal(r.comparison, null);
    assert.equal(r.comparison_note, "the earlier report holds this same result");
  }
});

Deno.test("--compare-with outside the results folder is refused with exit code 2", async () => {
  await using t = await tempEnv();
  await storeWithResults(t.dataDir);
  const { c, code } = cli(
    t.env,
    ["--export-only", "--compare-with", "../../etc/passwd"],
    new Date(),
  );
  assert.equal(await code, 2);
  assert.match(c.err[0]!, /Cannot compare with '\.\.\/\.\.\/etc\/passwd': .*not a path/);
  const written = await Array.fromAsync(Deno.readDir(t.dataDir));
  assert.ok(!written.some((e) => e.name === "results"), "no report folder is created");
});

Deno.test("--export-only with no matching results exits 1 with a clear message", async () => {
  await using t = await tempEnv();
  const { c, code } = cli(t.env, ["--export-only", "--only-vision"], new Date());
  assert.equal(await code, 1);
  assert.match(c.err[0]!, /no stored results match the filters/);
});
