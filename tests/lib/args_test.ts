import assert from "node:assert/strict";
import { parseOptions, splitOptions } from "../../lib/args.ts";

const OWN = {
  port: { type: "string", short: "p" },
  dev: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

Deno.test("splitOptions() takes a program's options with their values and keeps the rest in order", () => {
  assert.deepEqual(
    splitOptions(["--", "--runs", "2", "-p", "8", "--port=9", "-x", "--dev", "model"], OWN),
    { own: ["-p", "8", "--port=9", "--dev"], rest: ["--runs", "2", "-x", "model"] },
  );
});

Deno.test("splitOptions() leaves a mixed short cluster and everything after -- to the rest", () => {
  assert.deepEqual(splitOptions(["-hx", "--dev", "--", "--help"], OWN), {
    own: ["--dev"],
    rest: ["-hx", "--", "--help"],
  });
});

Deno.test("an own option without its value is refused in the project's words", () => {
  const { own } = splitOptions(["--runs", "1", "--port"], OWN);
  assert.throws(
    () => parseOptions({ args: own, options: OWN }),
    /Cannot parse arguments: --port needs a value/,
  );
});
