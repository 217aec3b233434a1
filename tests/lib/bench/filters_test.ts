import assert from "node:assert/strict";
import { applyFilters, smallest } from "../../../lib/bench/filters.ts";
import { selectTargets } from "../../../lib/bench/job.ts";
import type { Target } from "../../../lib/bench/target.ts";
import { paramsBillions, quantizationOfKey } from "../../../lib/bench/target.ts";
import { testOptions } from "./_harness.ts";

const GIB = 1024 ** 3;

function target(key: string, over: Partial<Target> = {}): Target {
  return {
    key,
    model_name: key.replace(/@.*/, ""),
    quantization: quantizationOfKey(key),
    architecture: "llama",
    params_string: "7B",
    size_bytes: 4 * GIB,
    max_context_length: 32768,
    format: "gguf",
    vision: false,
    tools: false,
    ...over,
  };
}

const TARGETS = [
  target("a/vision@q4_k_m", { vision: true, size_bytes: 6 * GIB }),
  target("a/tools@q8_0", { tools: true, architecture: "qwen3", params_string: "4B" }),
  target("b/small@q4_k_m", { size_bytes: 1 * GIB, max_context_length: 4096 }),
  target("b/unknown", { size_bytes: null, quantization: null, max_context_length: null }),
];

const keys = (ts: Target[]) => ts.map((t) => t.key);
const filters = (f: Parameters<typeof testOptions>[0]) => testOptions(f).filters;

Deno.test("each filter keeps matching targets and says why the others were dropped", () => {
  const vision = applyFilters(TARGETS, filters({ filters: { only_vision: true } }));
  assert.deepEqual(keys(vision.kept), ["a/vision@q4_k_m"]);
  assert.equal(vision.dropped[0]!.reason, "no vision");
  assert.deepEqual(
    keys(applyFilters(TARGETS, filters({ filters: { only_tools: true } })).kept),
    ["a/tools@q8_0"],
  );
  assert.deepEqual(
    keys(applyFilters(TARGETS, filters({ filters: { quants: ["Q4"] } })).kept),
    ["a/vision@q4_k_m", "b/small@q4_k_m"],
  );
  assert.deepEqual(
    keys(applyFilters(TARGETS, filters({ filters: { arch: ["QWEN3"] } })).kept),
    ["a/tools@q8_0"],
  );
  assert.deepEqual(
    keys(applyFilters(TARGETS, filters({ filters: { params: ["4b"] } })).kept),
    ["a/tools@q8_0"],
  );
  const ctx = applyFilters(TARGETS, filters({ filters: { min_context: 8192 } }));
  assert.deepEqual(keys(ctx.kept), ["a/vision@q4_k_m", "a/tools@q8_0"]);
  assert.match(
    ctx.dropped.find((d) => d.key === "b/unknown")!.reason,
    /maximum context unknown: the server does not report it before loading/,
  );
  const size = applyFilters(TARGETS, filters({ filters: { max_size: 4 } }));
  assert.deepEqual(keys(size.kept), ["a/tools@q8_0", "b/small@q4_k_m"], "unknown sizes are out");
  assert.deepEqual(
    keys(applyFilters(TARGETS, filters({ filters: { include_models: "^B/" } })).kept),
    ["b/small@q4_k_m", "b/unknown"],
    "regular expressions, case-insensitive",
  );
  assert.deepEqual(
    keys(applyFilters(TARGETS, filters({ filters: { exclude_models: "@q" } })).kept),
    ["b/unknown"],
  );
});

Deno.test("filters combine", () => {
  const r = applyFilters(TARGETS, filters({ filters: { quants: ["q4_k_m"], max_size: 2 } }));
  assert.deepEqual(keys(r.kept), ["b/small@q4_k_m"]);
});

Deno.test("the smallest target is the one --dev-mode keeps (unknown sizes last)", () => {
  assert.equal(smallest(TARGETS)!.key, "b/small@q4_k_m");
  assert.equal(smallest([TARGETS[3]!, TARGETS[1]!])!.key, "a/tools@q8_0");
  assert.equal(smallest([]), null);
});

Deno.test("selection applies --dev-mode, the cache and --limit in that order", () => {
  const cached = (t: Target) => t.key === "a/vision@q4_k_m";
  const limited = selectTargets(TARGETS, testOptions({ limit: 2 }), cached);
  assert.deepEqual(
    keys(limited.run),
    ["a/tools@q8_0", "b/small@q4_k_m"],
    "cached ones not counted",
  );
  assert.deepEqual(limited.skipped.map((s) => [s.key, s.reason.split(" ")[0]]), [
    ["a/vision@q4_k_m", "cached"],
    ["b/unknown", "--limit"],
  ]);
  const retest = selectTargets(TARGETS, testOptions({ retest: true }), cached);
  assert.equal(retest.run.length, 4);
  const dev = selectTargets(TARGETS, testOptions({ dev_mode: true }), () => false);
  assert.deepEqual(keys(dev.run), ["b/small@q4_k_m"]);
  assert.equal(dev.skipped.length, 3);
});

Deno.test("parameter counts parse B and M suffixes", () => {
  assert.equal(paramsBillions(target("x", { params_string: "26B-A4B" })), 26);
  assert.equal(paramsBillions(target("x", { params_string: "270M" })), 0.27);
  assert.equal(paramsBillions(target("x", { params_string: null })), null);
});
