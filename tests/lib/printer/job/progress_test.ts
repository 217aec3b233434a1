import assert from "node:assert/strict";
import { JobProgress } from "../../../../lib/printer/job/progress.ts";
import { ManualClock } from "../../../_fake_clock.ts";

Deno.test("JobProgress counts print time without pauses and estimates the time left", () => {
  const clock = new ManualClock();
  const progress = new JobProgress(clock);
  assert.deepEqual(progress.status(), {
    completion: null,
    filepos: null,
    lines: null,
    printTime: null,
    printTimeLeft: null,
  });
  progress.start(1000);
  assert.equal(progress.status().printTimeLeft, null, "no rate yet");
  clock.advance(10_000);
  progress.advance(250);
  progress.pause();
  clock.advance(3_600_000);
  progress.resume();
  assert.deepEqual(progress.status(), {
    completion: 25,
    filepos: 250,
    lines: 1,
    printTime: 10,
    printTimeLeft: 30,
  });
  clock.advance(5000);
  progress.pause();
  progress.end();
  clock.advance(5000);
  assert.equal(progress.status().printTime, 15, "paused when it ended");
  assert.equal(progress.status().printTimeLeft, null, "an ended print has no time left");
  progress.clear();
  assert.equal(progress.status().completion, null);
});

Deno.test("JobProgress reports per whole percent or after the interval", () => {
  const clock = new ManualClock();
  const progress = new JobProgress(clock);
  progress.start(1000);
  assert.equal(progress.due(1000), true, "the first report");
  progress.advance(5);
  assert.equal(progress.due(1000), false, "still 0 %");
  progress.advance(10);
  assert.equal(progress.due(1000), true, "1 %");
  clock.advance(999);
  assert.equal(progress.due(1000), false);
  clock.advance(1);
  assert.equal(progress.due(1000), true, "a second passed");
  progress.complete();
  assert.deepEqual([progress.status().completion, progress.status().printTimeLeft], [100, 0]);
});

Deno.test("JobProgress of an empty file is complete at once", () => {
  const progress = new JobProgress(new ManualClock());
  progress.start(0);
  assert.deepEqual([progress.status().completion, progress.status().printTimeLeft], [100, 0]);
});
