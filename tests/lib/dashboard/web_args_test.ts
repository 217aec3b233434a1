import assert from "node:assert/strict";
import { parseWebArgs } from "../../../lib/dashboard/web_args.ts";

Deno.test("parseWebArgs() keeps its own flags and passes the rest to the benchmark", () => {
  const a = parseWebArgs([
    "--port=0",
    "--host",
    "0.0.0.0",
    "--token",
    "t",
    "--no-plugins",
    "--runs",
    "2",
  ]);
  assert.equal(a.port, 0);
  assert.equal(a.hostname, "0.0.0.0");
  assert.equal(a.token, "t");
  assert.equal(a.plugins, false);
  assert.deepEqual(a.benchArgs, ["--runs", "2"]);
  assert.equal(a.dev, false);
  assert.throws(() => parseWebArgs(["--no-build"]), /'--no-build' was removed/);
  const dev = parseWebArgs(["--dev", "--runs", "1"]);
  assert.equal(dev.dev, true);
  assert.deepEqual(dev.benchArgs, ["--runs", "1"]);
  assert.throws(() => parseWebArgs(["--port", "70000"]), /0\.\.65535/);
  assert.throws(() => parseWebArgs(["--host"]), /needs a value/);
});
