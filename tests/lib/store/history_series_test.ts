import assert from "node:assert/strict";
import { eachBackend, openOn } from "./_backends.ts";
import { historySeries } from "../../../lib/store/history_series.ts";
import { sampleSummary, welchSummary } from "../../../lib/student_t.ts";
import { LONG_MODEL, seedLongHistory } from "./_long_history.ts";
import { machineRecord } from "./_machines.ts";

/** The figures of a line computed the plain way, from every speed in order (null: none). */
function expected(speeds: (number | null)[]) {
  const xs: number[] = [];
  const ys: number[] = [];
  speeds.forEach((y, i) => {
    if (y !== null) xs.push(i + 1), ys.push(y);
  });
  const n = ys.length;
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const [mx, my] = [mean(xs), mean(ys)];
  const slope = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) /
    xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const test = welchSummary(sampleSummary(ys[n - 1], 0.4, 5)!, sampleSummary(ys[0], 0.4, 5)!)!;
  const trend = test.p >= 0.05 ? "stable" : ys[n - 1]! > ys[0]! ? "up" : "down";
  return {
    min: Math.min(...ys),
    max: Math.max(...ys),
    avg: my,
    slope,
    // Up or down only where the line moves by more than 1% of its mean per result.
    trend: Math.abs(slope) > Math.max(my * 0.01, 1e-9) ? trend : "stable",
  };
}

for (const [points, drift, trend] of [[1_203, 3, "stable"], [60, 60, "up"]] as const) {
  eachBackend(
    `each line's figures, slope and Welch trend are over all of its ${points} results (${trend})`,
    async (backend) => {
      const store = await openOn(backend);
      try {
        const written = seedLongHistory(store, points, drift);
        const got = historySeries(store.db, LONG_MODEL)!;
        assert.deepEqual(got.series.map((s) => s.id), [...written.keys()], "in first-result order");
        for (const s of got.series) {
          const speeds = written.get(s.id)!;
          const want = expected(speeds);
          assert.equal(s.stats.total_runs, speeds.length, s.id);
          assert.equal(s.stats.min_speed, Math.round(want.min * 100) / 100, s.id);
          assert.equal(s.stats.max_speed, Math.round(want.max * 100) / 100, s.id);
          assert.equal(s.stats.avg_speed, Math.round(want.avg * 100) / 100, s.id);
          assert.ok(Math.abs(s.stats.slope! - want.slope) < 1e-4, `${s.id}: ${s.stats.slope}`);
          assert.equal(s.stats.trend, want.trend, s.id);
          assert.equal(s.stats.trend, trend, s.id);
        }
        assert.equal(got.stats.total_runs, points);
        assert.equal(got.stats.slope, null, "several lines: no one slope");
        assert.equal(got.stats.trend, trend, "the lines agree");
        assert.equal(got.series[2]!.workload, "prompt 64 tokens");
        assert.equal(got.series[0]!.newest_parallel?.n_parallel, 2);
      } finally {
        store.close();
      }
    },
  );
}

eachBackend("a model without finished results has no lines", async (backend) => {
  const store = await openOn(backend);
  try {
    assert.equal(historySeries(store.db, "nobody"), null);
  } finally {
    store.close();
  }
});

eachBackend(
  "a variant on two machines is two lines, and one machine's lines can be read alone",
  async (backend) => {
    const store = await openOn(backend);
    try {
      store.recordMachine(machineRecord("aaaa000000000001", "desk"));
      store.recordMachine(machineRecord("bbbb000000000002", "rack-server"));
      const model = { model_key: "org/m@q4_k_m", model_name: "org/m", quantization: "q4_k_m" };
      const measured = (machine: string | null, speed: number) => {
        const id = store.beginResult({
          model,
          params_hash: "h",
          backend: "rest",
          params: {},
          machine_id: machine,
        });
        store.finishResult(id, {
          status: "ok",
          aggregates: { tokens_per_sec_mean: speed, tokens_per_sec_std: 0.4, runs_ok: 5 },
        });
      };
      for (const speed of [40, 41, 42]) measured("aaaa000000000001", speed);
      for (const speed of [90, 92]) measured("bbbb000000000002", speed);
      measured(null, 10);
      const all = historySeries(store.db, "org/m")!;
      assert.deepEqual(all.series.map((s) => [s.machine_name, s.stats.total_runs]), [
        ["desk", 3],
        ["rack-server", 2],
        [null, 1],
      ]);
      assert.equal(all.stats.total_runs, 6);
      const server = historySeries(store.db, "org/m", "bbbb000000000002")!;
      assert.deepEqual(server.series.map((s) => s.machine_name), ["rack-server"]);
      assert.deepEqual([server.stats.total_runs, server.stats.avg_speed], [2, 91]);
      const unknown = historySeries(store.db, "org/m", null)!;
      assert.deepEqual(unknown.series.map((s) => s.stats.avg_speed), [10]);
      assert.equal(historySeries(store.db, "org/m", "cccc000000000003"), null);
    } finally {
      store.close();
    }
  },
);
