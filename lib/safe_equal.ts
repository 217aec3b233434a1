/**
 * The one constant-time comparison of secrets (the dashboard token, API key hashes, CSRF tokens).
 *
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * Whether two strings are equal, in a time that depends on neither their contents nor their
 * lengths: their SHA-256 digests are compared with `node:crypto`'s `timingSafeEqual`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { safeEqual } from "./safe_equal.ts";
 * assert.ok(safeEqual("abc", "abc") && !safeEqual("abc", "abd") && !safeEqual("a", "ab"));
 * ```
 */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}
