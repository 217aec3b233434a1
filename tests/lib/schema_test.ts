import assert from "node:assert/strict";
import { statusOf } from "../../lib/http/error_handler.ts";
import * as v from "valibot";
import {
  boolean,
  choice,
  fieldAt,
  fieldInfo,
  integer,
  number,
  object,
  parseSettings,
  rule,
  SettingError,
  text,
} from "../../lib/schema/mod.ts";
import { UsageError } from "../../lib/error.ts";

const SCHEMA = v.pipe(
  v.strictObject({
    on: v.optional(boolean(), true),
    mode: v.optional(choice(["a", "b"]), "a"),
    count: v.optional(integer({ min: 1, max: 9 }), 3),
    rate: v.optional(number({ min: 0, exclusiveMin: true }), 0.5),
    name: v.optional(v.pipe(text({ maxLength: 8 }), v.trim()), "x"),
    secret: v.optional(text(), ""),
    items: v.optional(v.array(object({ n: integer({ min: 0 }) }), "a list"), []),
  }, "an object"),
  rule("secret", (s) => s.secret !== "" && s.name === "x" ? "Setting 'secret' needs 'name'" : null),
);

function refusal(candidate: unknown): SettingError {
  try {
    parseSettings(SCHEMA, candidate, { owner: "demo", secrets: ["secret"] });
  } catch (err) {
    assert.ok(err instanceof SettingError, String(err));
    return err;
  }
  throw new Error("not refused");
}

Deno.test("parseSettings() fills defaults and returns the typed, normalised value", () => {
  assert.deepEqual(parseSettings(SCHEMA, { name: "  ab  " }, { owner: "demo" }), {
    on: true,
    mode: "a",
    count: 3,
    rate: 0.5,
    name: "ab",
    secret: "",
    items: [],
  });
});

Deno.test("a refused setting is a 400 invalid_setting naming its path and what it must be", () => {
  const cases: [unknown, string | null, string][] = [
    [{ on: "yes" }, "on", `Setting 'on' must be true or false: got "yes"`],
    [{ mode: "c" }, "mode", `Setting 'mode' must be one of a, b: got "c"`],
    [{ count: 10 }, "count", "Setting 'count' must be an integer between 1 and 9: got 10"],
    [{ count: 1.5 }, "count", "Setting 'count' must be an integer between 1 and 9: got 1.5"],
    [{ rate: 0 }, "rate", "Setting 'rate' must be a number > 0: got 0"],
    [{ rate: Number.NaN }, "rate", "Setting 'rate' must be a number > 0: got NaN"],
    [
      { name: "123456789" },
      "name",
      `Setting 'name' must be a string of at most 8 characters: got "123456789"`,
    ],
    [
      { items: [{ n: 1 }, { n: -1 }] },
      "items[1].n",
      "Setting 'items[1].n' must be an integer ≥ 0: got -1",
    ],
    [{ bogus: 1 }, "bogus", "Setting 'bogus' is not a setting of demo"],
    [[], null, "Settings of 'demo' must be an object"],
  ];
  for (const [candidate, setting, message] of cases) {
    const err = refusal(candidate);
    assert.ok(err instanceof UsageError);
    assert.deepEqual([statusOf(err), err.code, err.setting, err.message], [
      400,
      "invalid_setting",
      setting,
      message,
    ]);
  }
});

Deno.test("a long value is cut in the message", () => {
  const err = refusal({ name: "y".repeat(500) });
  assert.ok(err.message.length < 250, err.message);
  assert.match(err.message, /… \(502 characters\)$/);
});

Deno.test("a secret's value never appears in a message, and a rule names its setting", () => {
  const err = refusal({ secret: 12345 });
  assert.equal(err.message, "Setting 'secret' must be a string: got a hidden number");
  const broken = refusal({ secret: "hunter2" });
  assert.deepEqual([broken.setting, broken.message], ["secret", "Setting 'secret' needs 'name'"]);
  assert.ok(!broken.message.includes("hunter2"));
});

Deno.test("fieldInfo() and fieldAt() read a field's kind, bounds and options back", () => {
  const object = v.object({
    inner: v.optional(v.object({ x: v.optional(integer({ max: 4 }), 1) }), {}),
  });
  assert.deepEqual(fieldInfo(fieldAt(object, "inner.x")), {
    kind: "integer",
    max: 4,
    expected: "an integer ≤ 4",
  });
  assert.deepEqual(fieldInfo(choice(["p", "q"]))?.options, ["p", "q"]);
  assert.equal(fieldInfo(v.string()), undefined);
  assert.throws(() => fieldAt(object, "inner.y"), TypeError);
});

Deno.test("a list where an object belongs is refused, at the top and inside", () => {
  assert.equal(refusal([]).message, "Settings of 'demo' must be an object");
  const inner = refusal({ items: [[]] });
  assert.equal(inner.setting, "items[0]");
  assert.equal(inner.message, "Setting 'items[0]' must be an object: got []");
});
