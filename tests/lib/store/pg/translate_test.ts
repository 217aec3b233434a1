import assert from "node:assert/strict";
import { bind, translate } from "../../../../lib/store/pg/translate.ts";

Deno.test("casts, comments and quoted names keep their colons and question marks", () => {
  const t = translate(
    `SELECT CAST(:ids AS json)::text, "a?b", x::int -- a comment with ? and :c\nFROM t WHERE k = ?`,
  );
  assert.equal(
    t.text,
    `SELECT CAST($1 AS json)::text, "a?b", x::int -- a comment with ? and :c\nFROM t WHERE k = $2`,
  );
  assert.deepEqual(t.slots, ["ids", 0]);
});

Deno.test("SQLite's planner hints go; words that only contain them stay", () => {
  const t = translate(
    "SELECT reindexed_by, crossjoin FROM a CROSS  JOIN b INDEXED BY idx_b ON b.id = a.id",
  );
  assert.equal(t.text, "SELECT reindexed_by, crossjoin FROM a JOIN b ON b.id = a.id");
});

Deno.test("arguments bind by position or by name, bigints as text, missing ones as null", () => {
  assert.deepEqual(bind([0, 1], ["a", 2n]), ["a", "2"]);
  assert.deepEqual(bind(["x", "y", "x"], [{ x: 1 }]), [1, null, 1]);
  assert.deepEqual(bind([0], [new Uint8Array([1])]), [new Uint8Array([1])]);
});
