import assert from "node:assert/strict";
import { isAbort, JobController } from "../../../lib/bench/job_control.ts";

Deno.test("checkpoint resolves at once while running", async () => {
  const c = new JobController();
  await c.checkpoint();
  assert.equal(c.paused, false);
});

Deno.test("pause holds the next checkpoint until resume", async () => {
  const c = new JobController();
  c.pause();
  let passed = false;
  const p = c.checkpoint().then(() => (passed = true));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(passed, false);
  assert.equal(c.paused, true);
  c.resume();
  await p;
  assert.equal(passed, true);
});

Deno.test("stop aborts the signal and rejects a held checkpoint", async () => {
  const c = new JobController();
  c.pause();
  const held = c.checkpoint();
  c.stop("enough");
  await assert.rejects(held, (err) => isAbort(err) && (err as Error).message === "enough");
  assert.equal(c.stopped, true);
  assert.equal(c.signal.aborted, true);
  await assert.rejects(c.checkpoint(), (err) => isAbort(err));
  c.pause();
  assert.equal(c.paused, false, "a stopped job cannot be paused");
});

Deno.test("isAbort recognises abort errors only", () => {
  assert.equal(isAbort(new DOMException("x", "AbortError")), true);
  assert.equal(isAbort(new Error("x")), false);
});
