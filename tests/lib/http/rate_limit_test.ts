import assert from "node:assert/strict";
import { SlidingWindowLimiter } from "../../../lib/http/mod.ts";

Deno.test("SlidingWindowLimiter allows max attempts per window and then refuses", () => {
  const limiter = new SlidingWindowLimiter({ max: 10, windowMs: 60_000, now: () => 0 });
  for (let i = 0; i < 10; i++) assert.ok(limiter.attempt("a"), `attempt ${i}`);
  assert.equal(limiter.attempt("a"), false);
});

Deno.test("SlidingWindowLimiter keys clients independently", () => {
  const limiter = new SlidingWindowLimiter({ max: 1, windowMs: 1000, now: () => 0 });
  assert.ok(limiter.attempt("a"));
  assert.ok(limiter.attempt("b"));
  assert.equal(limiter.attempt("a"), false);
});

Deno.test("SlidingWindowLimiter frees a slot once the oldest attempt leaves the window", () => {
  let t = 0;
  const limiter = new SlidingWindowLimiter({ max: 2, windowMs: 1000, now: () => t });
  limiter.attempt("a");
  t = 500;
  limiter.attempt("a");
  assert.equal(limiter.attempt("a"), false);
  t = 1000;
  assert.ok(limiter.attempt("a"));
  assert.equal(limiter.attempt("a"), false);
});

Deno.test("SlidingWindowLimiter does not extend a block with rejected attempts", () => {
  let t = 0;
  const limiter = new SlidingWindowLimiter({ max: 1, windowMs: 1000, now: () => t });
  limiter.attempt("a");
  t = 900;
  assert.equal(limiter.attempt("a"), false);
  t = 1000;
  assert.ok(limiter.attempt("a"));
});

Deno.test("SlidingWindowLimiter rejects invalid options at construction", () => {
  assert.throws(() => new SlidingWindowLimiter({ max: 0, windowMs: 1 }), RangeError);
  assert.throws(() => new SlidingWindowLimiter({ max: 1, windowMs: 0 }), RangeError);
});
