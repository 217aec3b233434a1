import assert from "node:assert/strict";
import { CUT_MARK, MAX_ENTRY_CHARS } from "../../../plugins/logmonitor/entries.ts";
import { LineSplitter, MAX_TAIL_LINE_BYTES } from "../../../plugins/logmonitor/tail_lines.ts";

const enc = new TextEncoder();

Deno.test("LineSplitter joins a line written across chunks and strips CR LF", () => {
  const s = new LineSplitter();
  assert.deepEqual(s.push(enc.encode("one\r\ntw")), { lines: ["one"], sizes: [5] });
  assert.equal(s.pending, 2);
  assert.deepEqual(s.push(enc.encode("o\nthree\n")), { lines: ["two", "three"], sizes: [4, 6] });
  assert.equal(s.pending, 0);
});

Deno.test("LineSplitter cuts a line longer than its limit to the entry size with the cut marker", () => {
  const s = new LineSplitter();
  const long = "x".repeat(MAX_TAIL_LINE_BYTES * 3);
  const got = s.push(enc.encode(long.slice(0, 70_000)));
  assert.deepEqual(got.lines, []);
  const done = s.push(enc.encode(long.slice(70_000) + "\nnext\n"));
  assert.deepEqual(done.sizes, [long.length + 1, 5]);
  assert.equal(done.lines[0], "x".repeat(MAX_ENTRY_CHARS) + CUT_MARK);
  assert.equal(done.lines[1], "next");
});

Deno.test("LineSplitter holds at most its limit of an unfinished line however much arrives", () => {
  const s = new LineSplitter(10);
  for (let i = 0; i < 1000; i++) s.push(enc.encode("abcdefgh"));
  assert.equal(s.pending, 8000);
  const { lines, sizes } = s.flush();
  assert.deepEqual(lines, ["abcdefghab" + CUT_MARK]);
  assert.deepEqual(sizes, [8000]);
  assert.deepEqual(s.flush(), { lines: [], sizes: [] });
});

Deno.test("LineSplitter keeps a line of exactly its limit whole, and a multi-byte character intact", () => {
  const s = new LineSplitter(6);
  assert.deepEqual(s.push(enc.encode("abcdef\nüüü\n")).lines, ["abcdef", "üüü"]);
  assert.throws(() => new LineSplitter(0), RangeError);
});
