import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { join } from "node:path";
import {
  applyComparison,
  loadPreviousReport,
  metricDelta,
  renderJson,
  resolveCompareFile,
} from "../../../lib/reports/mod.ts";
import { trendKey } from "../../../lib/reports/compare.ts";
import { AppError } from "../../../lib/error.ts";
import { FIXTURE_MODELS } from "./fixtures.ts";
import { fixtureReport } from "./report_data.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const is400 = (err: unknown) => err instanceof AppError && statusOf(err) === 400;

Deno.test("resolveCompareFile() picks the newest report for 'latest', and null when there is none", async () => {
  await withDir(async (dir) => {
    assert.equal(await resolveCompareFile(dir, "latest"), null);
    for (const id of ["20260101_120000", "20260301_080000", "20260215_230000"]) {
      await Deno.writeTextFile(join(dir, `benchmark_results_${id}.json`), "{}");
    }
    await Deno.writeTextFile(join(dir, "benchmark_results_20991231_000000.csv"), "");
    assert.equal(
      await resolveCompareFile(dir, "latest"),
      join(dir, "benchmark_results_20260301_080000.json"),
    );
    assert.equal(
      await resolveCompareFile(dir, "20260101_120000"),
      join(dir, "benchmark_results_20260101_120000.json"),
    );
    assert.equal(
      await resolveCompareFile(dir, "benchmark_results_20260215_230000.json"),
      join(dir, "benchmark_results_20260215_230000.json"),
    );
  });
});

Deno.test("resolveCompareFile() refuses paths, '..', links out of the folder and missing reports", async () => {
  await withDir(async (dir) => {
    const outside = await Deno.makeTempFile({ suffix: ".json" });
    try {
      await Deno.symlink(outside, join(dir, "benchmark_results_link.json"));
      for (const ref of ["../x.json", "/etc/passwd", "sub/r.json", "..", "a\\b.json"]) {
        await assert.rejects(resolveCompareFile(dir, ref), is400, ref);
      }
      await assert.rejects(
        resolveCompareFile(dir, "link"),
        (e) => is400(e) && /outside the results folder/.test((e as Error).message),
      );
      await assert.rejects(
        resolveCompareFile(dir, "20200101_000000"),
        (e) => is400(e) && /there is no report/.test((e as Error).message),
      );
    } finally {
      await Deno.remove(outside);
    }
  });
});

Deno.test("metricDelta() gives Δ% and significance from constructed samples", () => {
  const clear = metricDelta(50, 55, [49.8, 50.1, 50.0, 50.2, 49.9], [54.9, 55.2, 55.0, 54.8, 55.1]);
  assert.ok(clear);
  assert.ok(Math.abs(clear.delta_pct - 10) < 1e-9);
  assert.equal(clear.significant, true);
  assert.ok(clear.p_value! < 0.001);
  const noisy = metricDelta(50, 51, [40, 60, 45, 55], [41, 61, 46, 56]);
  assert.ok(noisy);
  assert.ok(Math.abs(noisy.delta_pct - 2) < 1e-9);
  assert.equal(noisy.significant, false);
  const few = metricDelta(50, 60, [50], [60, 61]);
  assert.equal(few!.p_value, null);
  assert.equal(few!.significant, null);
  assert.equal(metricDelta(0, 60, [], []), null);
});

Deno.test("applyComparison() adds speed and TTFT deltas per model variant from an earlier JSON report", async () => {
  await withDir(async (dir) => {
    const slower = FIXTURE_MODELS.slice(0, 3).map((m) => ({
      ...m,
      speeds: m.speeds.map((s) => s * 0.8),
      ttfts: m.ttfts,
    }));
    const old = await fixtureReport({}, { models: slower });
    const file = join(dir, "benchmark_results_20260301_090000.json");
    await Deno.writeTextFile(file, renderJson(old));
    const previous = await loadPreviousReport(file);
    assert.equal(previous.source.report_id, old.id);
    const current = await fixtureReport({}, { previous, resultsDir: dir });
    const byKey = new Map(current.entries.map((e) => [e.row.model_key, e]));
    const qwen = byKey.get("qwen/qwen3-4b@q4_k_m")!.comparison!;
    assert.ok(Math.abs(qwen.speed!.delta_pct - 25) < 1e-6);
    assert.equal(qwen.speed!.significant, true);
    assert.ok(Math.abs(qwen.ttft!.delta_pct) < 1e-9);
    assert.equal(qwen.ttft!.significant, false);
    assert.equal(byKey.get("meta/llama-3.2-1b@q6_k")!.comparison, null);
    assert.equal(current.compare!.file, "benchmark_results_20260301_090000.json");
    // The trend is a line per identity: variant, backend and parameters.
    const qwenRow = byKey.get("qwen/qwen3-4b@q4_k_m")!.row;
    assert.equal(current.trend[trendKey(qwenRow)]!.length, 2);
    assert.equal(Object.keys(current.trend).length, 3, "one line per identity measured twice");
    assert.equal(applyComparison(current.entries, previous), 3);
  });
});

Deno.test("--compare-with compares like with like: not another backend, other parameters or the result itself", async () => {
  await withDir(async (dir) => {
    const file = join(dir, "benchmark_results_20260301_090000.json");
    const old = await fixtureReport({}, { models: FIXTURE_MODELS.slice(0, 3) });
    const json = JSON.parse(renderJson(old));
    // Variant 0: the very same result; 1: measured with another backend; 2: other parameters.
    const result = (i: number) =>
      json.results.find((r: { model_key: string }) => r.model_key === FIXTURE_MODELS[i]!.key);
    Object.assign(result(1), { id: 901, backend: "sdk" });
    Object.assign(result(2), { id: 902, params_hash: "other0params0000" });
    await Deno.writeTextFile(file, JSON.stringify(json));
    const previous = await loadPreviousReport(file);
    const current = await fixtureReport({}, { previous, resultsDir: dir });
    assert.ok(current.entries.every((e) => e.comparison === null), "nothing is compared");
    const note = (i: number) =>
      current.entries.find((e) => e.row.model_key === FIXTURE_MODELS[i]!.key)!.comparison_note;
    assert.deepEqual([note(0), note(1), note(2), note(3)], [
      "the earlier report holds this same result",
      "measured there with another backend (sdk, here rest)",
      "measured there with other parameters (other0params0000, here fixture0hash0001)",
      "not in the earlier report",
    ]);
  });
});

Deno.test("--compare-with does not compare a result with the same variant measured on another machine", async () => {
  await withDir(async (dir) => {
    const file = join(dir, "benchmark_results_20260301_090000.json");
    const old = await fixtureReport({}, { models: FIXTURE_MODELS.slice(0, 2) });
    const json = JSON.parse(renderJson(old));
    // Variant 0: measured on another machine; 1: the same parameters, no machine either side.
    Object.assign(json.results[0], {
      id: 901,
      machine_id: "ffff000000000001",
      machine_name: "other-box",
    });
    Object.assign(json.results[1], { id: 902 });
    await Deno.writeTextFile(file, JSON.stringify(json));
    const previous = await loadPreviousReport(file);
    const current = await fixtureReport({}, { models: FIXTURE_MODELS.slice(0, 2), previous });
    const byKey = new Map(current.entries.map((e) => [e.row.model_key, e]));
    const first = byKey.get(json.results[0].model_key)!;
    assert.equal(first.comparison, null);
    assert.equal(
      first.comparison_note,
      "measured there on another machine (other-box, here unknown machine)",
    );
    assert.notEqual(byKey.get(json.results[1].model_key)!.comparison, null);
    assert.notEqual(
      trendKey({ ...first.row, machine_id: "ffff000000000001" }),
      trendKey(first.row),
      "another machine is another trend line",
    );
  });
});
