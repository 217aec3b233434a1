import assert from "node:assert/strict";
import { RE2 } from "re2-wasm";
import {
  matchingLines,
  MAX_WINDOW,
  type Re2Program,
} from "../../../plugins/logmonitor/re2_lines.ts";

const program = (pattern: string, flags = "um") =>
  (new RE2(pattern, flags) as unknown as { wrapper: Re2Program }).wrapper;
const enc = (s: string) => new TextEncoder().encode(s);

/** The lines a per-line JavaScript test finds (the meaning matchingLines() keeps). */
const reference = (text: string, re: RegExp) =>
  text.split("\n").flatMap((l, i) => re.test(l.endsWith("\r") ? l.slice(0, -1) : l) ? [i] : []);

Deno.test("matchingLines() finds the lines RE2 matches across windows, CRLF and UTF-8", () => {
  const lines: string[] = [];
  for (let i = 0; i < 80_000; i++) {
    lines.push(i % 7 === 0 ? `über ${i} ok\r` : i % 13 === 0 ? `Ωμέγα ${i}` : `line ${i}`);
  }
  const text = lines.join("\n");
  assert.ok(text.length > 2 * MAX_WINDOW, "several windows");
  for (
    const [pattern, re] of [["^über [0-9]+ ok$", /^über [0-9]+ ok$/u], ["Ωμέγα 1", /Ωμέγα 1/u], [
      "[0-9]{5}$",
      /[0-9]{5}$/u,
    ], ["e\\s+l", /e\s+l/u]] as const
  ) {
    assert.deepEqual(
      matchingLines(enc(text), program(pattern), 8192, MAX_WINDOW),
      reference(text, re),
      pattern,
    );
  }
});

Deno.test("matchingLines() tests a match that crosses a line break against the line alone", () => {
  const text = "ab\ncd\nab cd\n";
  assert.deepEqual(matchingLines(enc(text), program("b\\s+c"), 100, MAX_WINDOW), [2]);
  assert.deepEqual(matchingLines(enc(text), program("[^x]{4}"), 100, MAX_WINDOW), [2]);
});

Deno.test("matchingLines() cuts each line to the cap before testing it", () => {
  const text = "a".repeat(100) + "b\nab\n";
  assert.deepEqual(matchingLines(enc(text), program("ab"), 50, MAX_WINDOW), [1]);
});

Deno.test("matchingLines() is linear for a catastrophic pattern on a backtracking trap", () => {
  const text = ("a".repeat(5000) + "!\n").repeat(50);
  assert.deepEqual(matchingLines(enc(text), program("(a+)+$"), 8192, MAX_WINDOW), []);
});
