import assert from "node:assert/strict";
import type { ResultsStore } from "../../../lib/store/mod.ts";
import { testDashboard } from "../_dashboard.ts";
import { seedStore } from "../_seed.ts";
import { seedLongHistory } from "../../lib/store/_long_history.ts";
import { machineRecord } from "../../lib/store/_machines.ts";

/**
 * A finished result of a variant measured through `backend` at `speed` tokens/s (5 runs, with
 * a spread of `sd`).
 */
function measured(
  store: ResultsStore,
  quant: string,
  backend: string,
  speed: number,
  sd = 0.5,
): void {
  const id = store.beginResult({
    model: {
      model_key: `qwen/qwen3-4b@${quant}`,
      model_name: "qwen/qwen3-4b",
      quantization: quant,
    },
    params_hash: `h-${backend}`,
    backend,
    params: {},
  });
  store.finishResult(id, {
    status: "ok",
    aggregates: { tokens_per_sec_mean: speed, tokens_per_sec_std: sd, runs_ok: 5 },
  });
}

Deno.test("the comparison gives one series per variant and backend, each with its own trend", async () => {
  await using d = await testDashboard();
  const store = d.web.store;
  // Two variants measured in turn: one line alternating 42 and 29 tokens/s looked like "down".
  for (let i = 0; i < 3; i++) {
    measured(store, "q4_k_m", "rest", 42);
    measured(store, "q8_0", "rest", 29);
  }
  measured(store, "q4_k_m", "sdk", 45);
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.equal(body.history.length, 7, "every point fits one page");
  assert.deepEqual(
    body.series.map((s: { id: string; backend: string; stats: { total_runs: number } }) => [
      s.id,
      s.backend,
      s.stats.total_runs,
    ]),
    [
      ["qwen/qwen3-4b@q4_k_m · rest · h-rest", "rest", 3],
      ["qwen/qwen3-4b@q8_0 · rest · h-rest", "rest", 3],
      ["qwen/qwen3-4b@q4_k_m · sdk · h-sdk", "sdk", 1],
    ],
  );
  for (const s of body.series) {
    assert.equal(s.stats.trend, "stable", s.id);
    assert.equal(s.stats.slope, 0, s.id);
  }
  assert.equal(body.series[1].stats.avg_speed, 29);
  assert.equal(body.stats.trend, "stable", "the series agree");
  assert.equal(body.stats.slope, null, "no single slope over several series");
  assert.deepEqual([body.stats.min_speed, body.stats.max_speed], [29, 45]);

  // A variant's own page: its two backends.
  const variant = await (await d.request("/api/comparison/qwen%2Fqwen3-4b@q4_k_m")).json();
  assert.deepEqual(variant.series.map((s: { backend: string }) => s.backend), ["rest", "sdk"]);
  measured(store, "q8_0", "rest", 20);
  const mixed = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.equal(mixed.series[1].stats.trend, "down");
  assert.equal(mixed.stats.trend, "mixed", "one series down, the others stable");
});

Deno.test("one series keeps the trend and slope of the whole model", async () => {
  await using d = await testDashboard();
  for (const speed of [40, 41, 42]) measured(d.web.store, "q4_k_m", "rest", speed);
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.equal(body.series.length, 1);
  assert.equal(body.stats.trend, "up");
  assert.equal(body.stats.slope, 1);
  assert.deepEqual(body.stats, body.series[0].stats);
});

Deno.test("a change within the runs' spread is no trend: 'stable', whatever the slope", async () => {
  await using d = await testDashboard();
  for (const speed of [40, 41, 42]) measured(d.web.store, "q4_k_m", "rest", speed, 6);
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.equal(body.stats.slope, 1, "the line still rises");
  assert.equal(body.stats.trend, "stable", "Welch's test finds no significant change");
});

Deno.test("the same variant with another workload is another line", async () => {
  await using d = await testDashboard();
  const store = d.web.store;
  const model = {
    model_key: "qwen/qwen3-4b@q4_k_m",
    model_name: "qwen/qwen3-4b",
    quantization: "q4_k_m",
  };
  for (
    const [hash, params, speed] of [
      ["h-default", {}, 40],
      ["h-grid", { workload: { prompt_tokens: [64, 256], gen_tokens: [128] } }, 300],
    ] as const
  ) {
    const id = store.beginResult({ model, params_hash: hash, backend: "rest", params });
    store.finishResult(id, {
      status: "ok",
      aggregates: { tokens_per_sec_mean: speed, tokens_per_sec_std: 1, runs_ok: 5 },
    });
  }
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.deepEqual(
    body.series.map((s: { workload: string | null; stats: { trend: string } }) => [
      s.workload,
      s.stats.trend,
    ]),
    [[null, "stable"], ["prompt 64,256 tokens · 128 out", "stable"]],
  );
  assert.equal(body.history[0].params_json, undefined, "the parameters stay in the series");
});

Deno.test("GET /api/comparison/{model_name} works for names containing '/'", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store, { resultsPerVariant: 3 });
  const res = await d.request("/api/comparison/qwen/qwen3-4b");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.model_name, "qwen/qwen3-4b");
  assert.equal(body.history.length, 6);
  assert.equal(body.stats.total_runs, 6);
  assert.equal(body.stats.min_speed, 20);
  assert.equal(body.stats.max_speed, 27);
  assert.ok(["up", "down", "stable"].includes(body.stats.trend));
  const variant = await (await d.request("/api/comparison/qwen%2Fqwen3-4b@q8_0")).json();
  assert.equal(variant.history.length, 3);
  assert.equal(variant.stats.trend, "up");
  const list = await (await d.request("/api/comparison")).json();
  assert.equal(list.models.length, 4);
});

Deno.test("GET /api/comparison/{model_name} is a 404 for a model without results", async () => {
  await using d = await testDashboard();
  const res = await d.request("/api/comparison/nobody/nothing");
  assert.equal(res.status, 404);
  assert.match((await res.json()).error, /nobody\/nothing/);
});

type Point = { id: number; series: string };

Deno.test("at 13,739 points the answer is one bounded page with each point once, and next reaches every point exactly once", async () => {
  await using d = await testDashboard();
  const written = seedLongHistory(d.web.store, 13_739);
  const res = await d.request("/api/comparison/qwen/qwen3-4b");
  const text = await res.text();
  const body = JSON.parse(text);
  assert.equal(body.history.length, 500, "the default page");
  assert.ok(text.length < 1_000_000, `${text.length} bytes`);
  for (const s of body.series) assert.equal(s.history, undefined, "no second copy per line");
  assert.equal(new Set(body.history.map((p: Point) => p.id)).size, 500, "each point once");
  assert.equal(body.stats.total_runs, 13_739, "the figures are over every point");
  assert.deepEqual(
    body.series.map((s: { id: string; stats: { total_runs: number } }) => [
      s.id,
      s.stats.total_runs,
    ]),
    [...written].map(([id, speeds]) => [id, speeds.length]),
  );

  const seen = new Map<number, string>();
  let next: number | null = null;
  for (let pages = 0; pages < 20; pages++) {
    const query: string = next === null ? "?limit=2000" : `?limit=2000&before=${next}`;
    const page = await (await d.request(`/api/comparison/qwen/qwen3-4b${query}`)).json();
    for (const p of page.history as Point[]) {
      assert.ok(!seen.has(p.id), `point ${p.id} came twice`);
      seen.set(p.id, p.series);
    }
    next = page.next;
    if (next === null) break;
  }
  assert.equal(seen.size, 13_739, "every point");
  for (const [id, speeds] of written) {
    assert.equal([...seen.values()].filter((s) => s === id).length, speeds.length, id);
  }

  const downsampled = await (await d.request("/api/comparison/qwen/qwen3-4b?per_line=400")).json();
  assert.equal(downsampled.next, null);
  for (const s of downsampled.series) {
    const n = downsampled.history.filter((p: Point) => p.series === s.id).length;
    assert.ok(n <= 400 && n > 100, `${s.id}: ${n} points`);
  }
});

Deno.test("a bad window is a 400 with {error, code}", async () => {
  await using d = await testDashboard();
  measured(d.web.store, "q4_k_m", "rest", 42);
  for (
    const query of [
      "limit=0",
      "limit=5001",
      "limit=abc",
      "limit=1.5",
      "limit=",
      "limit=-3",
      "before=0",
      "before=x",
      "before=99999999999999999999",
      "per_line=3",
      "per_line=5001",
      "per_line=10&limit=5",
      "per_line=10&before=9",
    ]
  ) {
    const res = await d.request(`/api/comparison/qwen/qwen3-4b?${query}`);
    assert.equal(res.status, 400, query);
    const body = await res.json();
    assert.equal(body.code, "invalid_argument", query);
    assert.match(body.error, /limit|before|per_line/, query);
  }
  const ok = await d.request("/api/comparison/qwen/qwen3-4b?limit=5000&before=1");
  assert.equal(ok.status, 200);
  assert.deepEqual((await ok.json()).history, [], "nothing older than the first result");
});

Deno.test("the same variant on two machines is two lines, and the answer holds it on each machine", async () => {
  await using d = await testDashboard();
  const store = d.web.store;
  store.recordMachine(machineRecord("aaaa000000000001", "desk"));
  store.recordMachine(machineRecord("bbbb000000000002", "rack-server"));
  const on = (machine: string | null, speed: number) => {
    const id = store.beginResult({
      model: {
        model_key: "qwen/qwen3-4b@q4_k_m",
        model_name: "qwen/qwen3-4b",
        quantization: "q4_k_m",
      },
      params_hash: "h-rest",
      backend: "rest",
      params: {},
      machine_id: machine,
    });
    store.finishResult(id, {
      status: "ok",
      aggregates: { tokens_per_sec_mean: speed, tokens_per_sec_std: 0.5, runs_ok: 5 },
    });
  };
  on(null, 30);
  on("aaaa000000000001", 40);
  on("aaaa000000000001", 41);
  on("bbbb000000000002", 90);
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  const series = body.series as {
    id: string;
    machine_name: string | null;
    stats: { total_runs: number };
  }[];
  assert.deepEqual(series.map((s) => [s.machine_name, s.stats.total_runs]), [
    [null, 1],
    ["desk", 2],
    ["rack-server", 1],
  ]);
  assert.equal(new Set(series.map((s) => s.id)).size, 3);
  // Every point names its machine's line.
  const ids = new Set(series.map((s) => s.id));
  assert.ok(body.history.every((p: { series: string }) => ids.has(p.series)));
  assert.deepEqual(
    body.machines.map((
      m: { machine_name: string; tokens_per_sec_mean: number; gpus: string | null },
    ) => [
      m.machine_name,
      m.tokens_per_sec_mean,
      m.gpus,
    ]).sort(),
    [
      ["desk", 41, "GPU of desk (nvidia 550.54)"],
      ["rack-server", 90, "GPU of rack-server (nvidia 550.54)"],
      ["unknown machine", 30, null],
    ],
  );
  // ?machine= narrows the lines and points to one machine; `machines` still lists every one.
  const desk = await (await d.request("/api/comparison/qwen/qwen3-4b?machine=aaaa000000000001"))
    .json();
  assert.deepEqual(desk.series.map((s: { machine_name: string }) => s.machine_name), ["desk"]);
  assert.equal(desk.history.length, 2);
  assert.equal(desk.machines.length, 3);
  const unknown = await (await d.request("/api/comparison/qwen/qwen3-4b?machine=unknown")).json();
  assert.deepEqual(unknown.series.map((s: { machine_name: string }) => s.machine_name), [null]);
  const elsewhere = await d.request("/api/comparison/qwen/qwen3-4b?machine=cccc000000000003");
  assert.equal(elsewhere.status, 404);
  assert.match((await elsewhere.json()).error, /on that machine/);
  const empty = await d.request("/api/comparison/qwen/qwen3-4b?machine=");
  assert.equal(empty.status, 400);
  assert.equal((await empty.json()).code, "invalid_argument");
});
