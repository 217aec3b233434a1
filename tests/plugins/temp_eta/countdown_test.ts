import assert from "node:assert/strict";
import {
  Countdown,
  REVISION_HOLD_SECONDS,
  SMOOTHING_SECONDS,
} from "../../../plugins/temp_eta/countdown.ts";

/** Feeds raw estimates each second from `from` to `to` (inclusive) and returns the displays. */
function feed(c: Countdown, from: number, to: number, raw: (t: number) => number | null) {
  const out: Array<number | null> = [];
  for (let t = from; t <= to; t++) out.push(c.update(t, raw(t)));
  return out;
}

Deno.test("Countdown waits for half a smoothing window, then counts a right estimate down", () => {
  const c = new Countdown();
  const shown = feed(c, 0, 40, (t) => 100 - t);
  const first = SMOOTHING_SECONDS / 2;
  assert.ok(shown.slice(0, first).every((s) => s === null));
  assert.deepEqual(shown.slice(first), Array.from({ length: 41 - first }, (_, i) => 95 - i));
});

Deno.test("Countdown never shows more than before while the estimate jitters", () => {
  const c = new Countdown();
  const jitter = [4, -6, 7, -3, 5, -8, 2, 6, -4, 3];
  const shown = feed(c, 0, 120, (t) => 200 - t + jitter[t % jitter.length]!)
    .filter((s): s is number => s !== null);
  for (let i = 1; i < shown.length; i++) assert.ok(shown[i]! <= shown[i - 1]!, `at ${i}`);
  assert.ok(Math.abs(shown[shown.length - 1]! - 80) < 8, `ends near the truth: ${shown.at(-1)}`);
});

Deno.test("Countdown holds while the heater is slower than shown, catches up when faster", () => {
  const c = new Countdown();
  feed(c, 0, 10, () => 60);
  // The estimate now says 40 s more than the display: once the median has moved (a few
  // updates), the display stops counting until they agree.
  const held = feed(c, 11, 20, (t) => 90 - (t - 11));
  assert.ok(held.slice(2).every((s) => s === held[2]), `held ${held}`);
  assert.ok(held[2]! >= 50, `held at ${held[2]}`);
  // The heater speeds up: the display comes down within a few updates.
  const faster = feed(c, 21, 40, () => 10);
  assert.ok(faster.at(-1)! <= 11, `caught up ${faster.at(-1)}`);
});

Deno.test("Countdown jumps up once when the estimate stays far above it", () => {
  const c = new Countdown();
  feed(c, 0, 10, () => 30);
  const later = feed(c, 11, 11 + SMOOTHING_SECONDS + REVISION_HOLD_SECONDS + 2, () => 300);
  const jumped = later.findIndex((s, i) => i > 0 && s! > later[i - 1]!);
  assert.ok(jumped > 0, "one jump up");
  assert.ok(later.at(-1)! > 250, `now ${later.at(-1)}`);
});

Deno.test("Countdown recomputes a repeated sample time instead of counting it twice", () => {
  const a = new Countdown(), b = new Countdown();
  feed(a, 0, 20, (t) => 100 - t);
  feed(b, 0, 20, (t) => 100 - t);
  a.update(21, 70);
  a.update(21, 79);
  assert.equal(a.update(21, 79), b.update(21, 79));
  assert.equal(a.update(22, null), null, "no estimate, nothing shown");
  assert.equal(a.shownAt(25), b.shownAt(25));
});
