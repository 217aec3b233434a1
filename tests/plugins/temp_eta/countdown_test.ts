import assert from "node:assert/strict";
import {
  BRAKING_GRADUAL,
  Countdown,
  REVISION_HOLD_SECONDS,
  SLOWEST_CLOCK,
  SMOOTHING_SECONDS,
} from "../../../plugins/temp_eta/countdown.ts";

/**
 * Feeds raw estimates each second from `from` to `to` (inclusive) and returns the displays;
 * `braking`: the heater is in the braking band.
 */
function feed(
  c: Countdown,
  from: number,
  to: number,
  raw: (t: number) => number | null,
  braking = false,
) {
  const out: Array<number | null> = [];
  for (let t = from; t <= to; t++) out.push(c.update(t, raw(t), braking));
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

Deno.test("Countdown counts down more slowly, never stops, while the heater is slower than shown", () => {
  const c = new Countdown();
  feed(c, 0, 10, () => 60);
  // The estimate now says 40 s more than the display: once the median has moved (a few
  // updates), the display runs at a slower clock (a frozen display looks dead) until they agree.
  const slow = feed(c, 11, 20, (t) => 90 - (t - 11));
  for (let i = 3; i < slow.length; i++) {
    const step = slow[i - 1]! - slow[i]!;
    assert.ok(step >= SLOWEST_CLOCK - 1e-9 && step < 1, `step ${step} at ${i}: ${slow}`);
  }
  assert.ok(slow.at(-1)! >= 45, `still at ${slow.at(-1)}`);
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

Deno.test("In the braking band, Countdown follows a slightly earlier estimate gradually", () => {
  // A right estimate for 20 s, then one 10 % earlier (a heater running ahead of its estimate in
  // the last degrees, which its controller is about to brake).
  const earlier = (t: number) => (t <= 20 ? 100 - t : 0.9 * (100 - t));
  const free = new Countdown(), band = new Countdown();
  const outside = feed(free, 0, 40, earlier).at(-1)!;
  const inside = feed(band, 0, 40, earlier, true);
  // Outside the band the display has taken the new estimate (54); inside it is still near the
  // clock (60), a third of the way down, and it never went up.
  assert.ok(Math.abs(outside - 0.9 * 60) <= 1, `outside ${outside}`);
  assert.ok(inside.at(-1)! > 0.9 * 60 + 3 && inside.at(-1)! <= 60, `inside ${inside.at(-1)}`);
  const shown = inside.filter((s): s is number => s !== null);
  for (let i = 1; i < shown.length; i++) assert.ok(shown[i]! <= shown[i - 1]!, `at ${i}`);
  // It keeps closing in: a minute later it is within a few seconds of the estimate.
  const later = feed(band, 41, 80, earlier, true).at(-1)!;
  assert.ok(later - 0.9 * 20 < 3, `later ${later}`);
});

Deno.test("In the braking band, Countdown follows a much earlier estimate half way per update", () => {
  const c = new Countdown();
  feed(c, 0, 20, (t) => 100 - t, true);
  // Below the gradual share the heater is far faster than shown: as outside the band, the
  // display moves half way per update once the median has moved, down to the gradual share.
  const much = 0.5;
  const shown = feed(c, 21, 30, (t) => much * (100 - t), true);
  const jump = shown.findIndex((s, i) => i > 0 && shown[i - 1]! - s! > 2);
  assert.ok(jump > 0, `a big step down: ${shown}`);
  const i = jump + 2, estimate = much * (100 - (21 + i));
  assert.ok(shown[i]! <= estimate / BRAKING_GRADUAL + 1, `${shown[i]} two updates later`);
});
