import assert from "node:assert/strict";
import { waitFor } from "../_helpers.ts";
import { scaledClock } from "./marlin_clock.ts";

Deno.test("the scaled clock runs speed times faster than real time", async () => {
  const clock = scaledClock(100, 0);
  const realStart = performance.now();
  const simStart = clock.now();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const sim = clock.now() - simStart;
  const real = performance.now() - realStart;
  assert.ok(sim <= 100 * real + 1 && sim >= 100 * (real - 5), `${sim} ms simulated in ${real} ms`);
});

Deno.test("the scaled clock's timers fire after the simulated delay and can be cancelled", async () => {
  const clock = scaledClock(50);
  const fired: string[] = [];
  const start = clock.now();
  clock.setTimeout(() => fired.push(`after ${clock.now() - start}`), 2000);
  const cancel = clock.setTimeout(() => fired.push("cancelled"), 1000);
  cancel();
  const stop = clock.setInterval(() => fired.push("tick"), 1000);
  await waitFor(() => fired.filter((f) => f === "tick").length >= 3, "three ticks");
  stop();
  const after = fired.find((f) => f.startsWith("after"));
  assert.ok(after && Number(after.split(" ")[1]) >= 1900, `fired: ${fired}`);
  assert.ok(!fired.includes("cancelled"));
});

Deno.test("advance jumps the scaled clock ahead and runs its interval timers at once", () => {
  const clock = scaledClock(1, 0);
  const seen: number[] = [];
  const stop = clock.setInterval(() => seen.push(clock.now()), 100);
  clock.advance(60_000);
  stop();
  assert.equal(seen.length, 1);
  assert.ok(seen[0]! >= 60_000 && seen[0]! < 61_000);
});
