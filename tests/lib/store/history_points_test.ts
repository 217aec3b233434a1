import assert from "node:assert/strict";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { historyDownsampled, historyPage } from "../../../lib/store/history_points.ts";
import { LONG_MODEL, seedLongHistory } from "./_long_history.ts";

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
