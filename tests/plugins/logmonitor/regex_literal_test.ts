import assert from "node:assert/strict";
import { requiredLiteral, requiredLiterals } from "../../../plugins/logmonitor/regex_literal.ts";

Deno.test("requiredLiteral() finds the longest text every match must contain", () => {
  const cases: [string, boolean, string | null][] = [
    ["timeout after [0-9]+ retries", true, "timeout after "],
    ["Send: N\\d+ M105", false, "Send: N"],
    ["abc+def", false, "abc"],
    ["ab?cdef", false, "cdef"],
    ["x{0,2}hello", false, "hello"],
    ["hel{2}o world", false, "o world"],
    ["a\\.b\\.c\\.d", false, "a.b.c.d"],
    ["(foo|bar)baz", false, "baz"],
    ["foo|barbaz", false, null],
    ["[abc]+", false, null],
    ["\\d+ms", false, null],
    ["(?=xyz)abc", false, "abc"],
    ["Ünïcode", true, null],
    ["Ünïcode", false, "Ünïcode"],
    ["°C rising", true, "°C rising"],
  ];
  for (const [pattern, ci, want] of cases) {
    assert.equal(requiredLiteral(pattern, ci), want, pattern);
  }
});

Deno.test("a required literal is really required: every match of random patterns holds it", () => {
  const samples = ["timeout after 3 retries", "abccdef", "xxhello", "hello", "a.b.c.d", "foobaz"];
  for (
    const p of [
      "timeout after [0-9]+ retries",
      "abc+def",
      "x{0,2}hello",
      "a\\.b\\.c\\.d",
      "(foo|bar)baz",
    ]
  ) {
    const lit = requiredLiteral(p, true)!;
    for (const s of samples) {
      if (new RegExp(p, "i").test(s)) {
        assert.ok(s.toLowerCase().includes(lit.toLowerCase()), `${p} on ${s}`);
      }
    }
  }
});

Deno.test("requiredLiterals() gives one text per branch of an alternation", () => {
  const cases: [string, string[] | null][] = [
    ["timeout after \\d+", ["timeout after "]],
    ["(checksum|resend)", ["checksum", "resend"]],
    ["(?:checksum|resend)", ["checksum", "resend"]],
    ["checksum|resend \\d+", ["checksum", "resend "]],
    ["(checksum|re)", null],
    ["(a|bcd)(e|fgh)", null],
    ["\\d+ms", null],
  ];
  for (const [pattern, want] of cases) {
    assert.deepEqual(requiredLiterals(pattern, true), want, pattern);
  }
});
