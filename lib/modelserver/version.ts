/**
 * Version helpers: the benchmark checks "model server ≥ 0.4.0" before parallel runs.
 *
 * @module
 */

/** The first `X.Y[.Z]` in a text (`v0.4.1`, `LM Studio 0.3.30 build 2`), or null. */
export function parseVersion(text: string): string | null {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  if (m === null) return null;
  return `${m[1]}.${m[2]}.${m[3] ?? "0"}`;
}

/**
 * Compares two dotted versions numerically (`0.10.0` > `0.9.9`); a leading `v` and suffixes such
 * as `-beta` or `+build` are ignored, missing parts count as 0.
 *
 * @returns a negative number when `a < b`, 0 when equal, a positive number when `a > b`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareVersions } from "./version.ts";
 * assert.ok(compareVersions("0.4.0", "0.3.31") > 0);
 * assert.equal(compareVersions("v0.4", "0.4.0"), 0);
 * ```
 */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v.trim().replace(/^v/i, "").split(/[-+ ]/)[0]!.split(".").map((p) => {
      const n = parseInt(p, 10);
      return Number.isFinite(n) ? n : 0;
    });
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether `version` is at least `minimum`; false when the version is unknown. */
export function atLeast(version: string | null, minimum: string): boolean {
  return version !== null && compareVersions(version, minimum) >= 0;
}
