import assert from "node:assert/strict";
import {
  acquireFinder,
  ByteFinder,
  FINDER_IDLE_MS,
  type Fold,
  releaseFinder,
} from "../../../plugins/logmonitor/scan_kernel.ts";

const lower = (b: number) => (b >= 65 && b <= 90 ? b | 32 : b);

function naive(h: Uint8Array, s: number, e: number, n: Uint8Array, fold: Fold): number {
  const f = fold === "bit5" ? (b: number) => b | 0x20 : fold ? lower : (b: number) => b;
  outer: for (let i = s; i + n.length <= e; i++) {
    for (let j = 0; j < n.length; j++) {
      if (f(h[i + j]!) !== f(n[j]!)) continue outer;
    }
    return i;
  }
  return -1;
}

Deno.test("ByteFinder.find() agrees with a naive search for any needle, range and case mode", () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const alphabet = "aAbB-zZ\n°\r-üÜиИ@`";
  const f = new ByteFinder(2048);
  for (let round = 0; round < 3000; round++) {
    const bytes = new TextEncoder().encode(
      Array.from({ length: 2100 }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(""),
    );
    f.hay.set(bytes.subarray(0, 2048));
    const needles = Array.from(
      { length: 1 + Math.floor(rand() * 3) },
      () => bytes.slice(100 + Math.floor(rand() * 500)).subarray(0, 1 + Math.floor(rand() * 5)),
    );
    const x = rand();
    const fold: Fold = x < 0.33 ? false : x < 0.66 ? true : "bit5";
    f.setNeedles(needles, fold);
    const start = Math.floor(rand() * 40);
    const end = start + Math.floor(rand() * 2000);
    for (let k = 0; k < needles.length; k++) {
      assert.equal(
        f.find(start, Math.min(end, 2048), k),
        naive(f.hay, start, Math.min(end, 2048), needles[k]!, fold),
      );
    }
  }
});

Deno.test("ByteFinder refuses empty and oversized needles", () => {
  const f = new ByteFinder(16);
  assert.throws(() => f.setNeedles([new Uint8Array(0)], false), RangeError);
  assert.throws(() => f.setNeedles([new Uint8Array(5000)], false), RangeError);
});

Deno.test("an idle finder is reused by the next search, and dropped once searches stop", async () => {
  const first = acquireFinder(1024);
  releaseFinder(first);
  const again = acquireFinder(1024);
  assert.equal(again, first, "reused");
  releaseFinder(again);
  await new Promise((r) => setTimeout(r, FINDER_IDLE_MS + 200));
  const later = acquireFinder(1024);
  assert.notEqual(later, first, "its memory was given up");
  releaseFinder(later);
  await new Promise((r) => setTimeout(r, FINDER_IDLE_MS + 200)); // no timer left behind
});
