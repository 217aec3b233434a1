/**
 * line_sums as kept and as computed from the history, for the tests of lib/store/line_sums.ts
 * and its PostgreSQL twin.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { StoreDb } from "../../../lib/store/mod.ts";
import { linesFromScratchSql } from "../../../lib/store/line_sums.ts";

/** Two machines' ids. */
export const DESK = "aaaa000000000001";
export const RACK = "bbbb000000000002";

/** A row of line_sums. */
export type Line = Record<string, unknown>;

/** The columns compared. */
const COLUMNS = [
  "model_id",
  "backend",
  "params_hash",
  "machine_key",
  "total",
  "n",
  "sx",
  "sxx",
  "sy",
  "sxy",
  "min_y",
  "max_y",
  "first_run",
  "last_run",
  "first_id",
  "last_id",
  "first_measured",
  "last_measured",
  "parallel_id",
];

const key = (l: Line) => `${l.model_id}|${l.backend}|${l.params_hash}|${l.machine_key}`;
/** By the line's key. */
export const byKey = (a: Line, b: Line) => key(a) < key(b) ? -1 : 1;

/** Every line computed from the history, one pass per call. */
export function fromScratch(db: StoreDb): Line[] {
  return (db.prepare(linesFromScratchSql()).all() as Line[]).map((r) => ({ ...r })).sort(byKey);
}

/** The rows of line_sums. */
export function kept(db: StoreDb): Line[] {
  return (db.prepare(`SELECT ${COLUMNS.join(", ")}, stale FROM line_sums`).all() as Line[])
    .map((r) => ({ ...r })).sort(byKey);
}

/** Equal, the float sums within rounding (added in another order). */
export function assertSame(got: Line[], want: Line[], what: string): void {
  assert.equal(got.length, want.length, `${what}: lines`);
  got.forEach((g, i) => {
    for (const c of COLUMNS) {
      const [a, b] = [g[c], want[i]![c]];
      if (typeof a === "number" && typeof b === "number" && ["sy", "sxy"].includes(c)) {
        assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${c} ${a} ≠ ${b}`);
      } else assert.equal(a, b, `${what}: ${c} of ${g.backend}/${g.params_hash}`);
    }
  });
}
