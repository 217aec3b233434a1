import assert from "node:assert/strict";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { historyDownsampled, historyPage } from "../../../lib/store/history_points.ts";
import { LONG_MODEL, seedLongHistory } from "./_long_history.ts";
import { eachBackend, openOn } from "./_backends.ts";

// Long enough for many pages and downsampled lines; the 13,739-point answer is in
// tests/routes/api/comparison_test.ts.
const POINTS = 3_001;

Deno.test("following next through 3,001 points returns every point exactly once, each page oldest first", () => {
  using store = disposable(ResultsStore.open(":memory:"));
  seedLongHistory(store.value, POINTS);
  const seen: number[] = [];
  let before: number | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const page = historyPage(store.value.db, LONG_MODEL, 250, before);
    assert.ok(page.history.length <= 250);
    const ids = page.history.map((p) => p.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "oldest first within a page");
    seen.push(...ids);
    if (page.next === null) break;
    assert.equal(page.next, ids[0], "the cursor is the page's oldest result");
    before = page.next;
  }
  assert.equal(seen.length, POINTS);
  assert.equal(new Set(seen).size, POINTS, "no point twice");
});

Deno.test("a page names each point's line and an exact multiple of the limit ends without a cursor", () => {
  using store = disposable(ResultsStore.open(":memory:"));
  seedLongHistory(store.value, 8);
  const first = historyPage(store.value.db, LONG_MODEL, 4, null);
  assert.equal(first.history[0]!.series, `${LONG_MODEL}@q4_k_m · rest · h-default`);
  const second = historyPage(store.value.db, LONG_MODEL, 4, first.next);
  assert.equal(second.history.length, 4);
  assert.equal(second.next, null, "no empty page after the last full one");
  assert.deepEqual(historyPage(store.value.db, "nobody", 4, null), { history: [], next: null });
});

Deno.test("downsampling keeps each line's first, last, slowest and fastest result, at most per_line points", () => {
  using store = disposable(ResultsStore.open(":memory:"));
  const written = seedLongHistory(store.value, POINTS);
  const points = historyDownsampled(store.value.db, LONG_MODEL, 100);
  assert.equal(new Set(points.map((p) => p.id)).size, points.length, "each point once");
  for (const [line, speeds] of written) {
    const kept = points.filter((p) => p.series === line);
    assert.ok(kept.length <= 100 && kept.length >= 50, `${line}: ${kept.length} points`);
    const measured = speeds.filter((s) => s !== null);
    const shown = kept.map((p) => p.speed_tokens_sec).filter((s) => s !== null);
    assert.equal(Math.min(...shown), Math.min(...measured), `${line}: slowest kept`);
    assert.equal(Math.max(...shown), Math.max(...measured), `${line}: fastest kept`);
    assert.equal(kept[0]!.speed_tokens_sec, speeds[0], `${line}: first kept`);
    assert.equal(kept.at(-1)!.speed_tokens_sec, speeds.at(-1), `${line}: last kept`);
  }
});

/** A store closed at the end of the scope. */
function disposable(store: ResultsStore): { value: ResultsStore } & Disposable {
  return { value: store, [Symbol.dispose]: () => store.close() };
}

eachBackend(
  "each point carries its result's columns under the API's names, in one order, then its line",
  async (backend) => {
    const store = await openOn(backend);
    try {
      seedLongHistory(store, 60);
      const byId = new Map(
        store.db.prepare(
          `SELECT r.*, m.model_key, m.quantization FROM results r JOIN models m ON m.id = r.model_id`,
        ).all().map((r) => [Number(r.id), r]),
      );
      const page = historyPage(store.db, LONG_MODEL, 60, null).history;
      const downsampled = historyDownsampled(store.db, LONG_MODEL, 8);
      assert.equal(page.length, 60);
      for (const p of [...page, ...downsampled]) {
        assert.deepEqual(Object.keys(p), [
          "id",
          "timestamp",
          "model_key",
          "quantization",
          "backend",
          "params_hash",
          "speed_tokens_sec",
          "tokens_per_sec_p95",
          "ttft",
          "gen_time",
          "vram_mb",
          "tokens_per_sec_per_gb",
          "context_length",
          "num_runs",
          "error_count",
          "n_parallel",
          "parallel_tokens_per_sec",
          "tokens_per_sec_std",
          "runs_ok",
          "machine_id",
          "series",
        ]);
        const r = byId.get(p.id)!;
        assert.deepEqual(
          [p.timestamp, p.model_key, p.quantization, p.backend, p.params_hash, p.speed_tokens_sec],
          [
            r.finished_at,
            r.model_key,
            r.quantization,
            r.backend,
            r.params_hash,
            r.tokens_per_sec_mean,
          ],
        );
        assert.deepEqual(
          [p.ttft, p.gen_time, p.error_count, p.n_parallel, p.parallel_tokens_per_sec, p.runs_ok],
          [
            r.ttft_ms_mean,
            r.total_ms_mean,
            r.runs_failed,
            r.n_parallel,
            r.parallel_tokens_per_sec,
            r.runs_ok,
          ],
        );
        assert.deepEqual(
          [p.tokens_per_sec_p95, p.vram_mb, p.tokens_per_sec_per_gb, p.context_length, p.num_runs],
          [r.tokens_per_sec_p95, r.vram_mb, r.tokens_per_sec_per_gb, r.context_length, r.num_runs],
        );
        assert.deepEqual([p.tokens_per_sec_std, p.machine_id], [
          r.tokens_per_sec_std,
          r.machine_id,
        ]);
        assert.equal(p.series, `${r.model_key} · ${r.backend} · ${r.params_hash}`);
      }
    } finally {
      store.close();
    }
  },
);
